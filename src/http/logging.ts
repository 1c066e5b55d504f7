import type { IncomingMessage } from 'node:http'
import { type FastifyBaseLogger, type FastifyRequest, LogController } from 'fastify'
import pino, { type DestinationStream, type Level } from 'pino'

/**
 * Query parameters whose value is a credential or personal data: one-time links carry `token`,
 * soft checks carry `emailAddress`. Matched without regard to case, and by fragment, so
 * `refresh_token`, `apiKey` or `PASSWORD` are caught too.
 */
const SECRET_PARAMETER =
  /token|secret|password|passwd|api[-_]?key|apikey|signature|sig$|^code$|credential|auth|session|email|otp|^key$/i

export const REDACTED = '[REDACTED]'

/** The URL as it may be logged: path kept, the value of every sensitive query parameter replaced. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?')
  if (question < 0) return url
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const rawName = equals < 0 ? pair : pair.slice(0, equals)
      let name = rawName
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '))
      } catch {
        // An undecodable name is judged as sent.
      }
      return equals >= 0 && SECRET_PARAMETER.test(name) ? `${rawName}=${REDACTED}` : pair
    })
    .join('&')
  return `${url.slice(0, question)}?${query}`
}

type LoggableRequest = Pick<FastifyRequest, 'method' | 'url' | 'host' | 'ip'> & {
  socket?: IncomingMessage['socket']
}

/**
 * What a request contributes to a log line: method, redacted URL, host and client address. No
 * headers and no body, so bearer tokens, API keys, cookies and passwords never reach the log.
 */
export const logSerializers = {
  req: (request: LoggableRequest) => ({
    method: request.method,
    url: redactUrl(request.url ?? ''),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
}

/** Fastify's own log lines, with the one that prints a raw URL ("Route ... not found") redacted. */
export class RedactingLogController extends LogController {
  override routeNotFound(request: FastifyRequest) {
    if (this.isLogDisabled(request)) return
    request.log.info(`Route ${request.raw.method}:${redactUrl(request.raw.url ?? '')} not found`)
  }
}

/** Belt and braces for anything else that logs a request or response object with its headers. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-dispatch-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-dispatch-api-key"]',
]

/** The process logger: JSON lines at `level` to stdout (or `destination`, e.g. a test's memory stream). */
export function createLogger(level: Level | 'silent', destination?: DestinationStream): FastifyBaseLogger {
  return pino({ level, redact: REDACT_PATHS, serializers: logSerializers }, destination)
}

/** Whatever logger an app is given logs requests through the redacting serializers. */
export function withRedaction(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { serializers: logSerializers })
}
