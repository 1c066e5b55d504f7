import { STATUS_CODES } from 'node:http'
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteShorthandOptions,
} from 'fastify'
import { databaseFault } from '../db/faults.js'
import { storageState } from '../db/storage-state.js'
import { AppError, type Reason } from '../errors.js'
import { dropEmptyBodyType } from './empty-body.js'
import type { ApiFlavor } from './envelopes.js'

interface AjvError {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

/** Turns Ajv errors into one reason per field, naming the field path as the client wrote it. */
export function reasonsFromValidation(errors: readonly AjvError[], context: string | undefined): Reason[] {
  const byField = new Map<string, string>()
  // A value that fails every branch of a choice of formats (a date or a date-time) names them all.
  const formats = new Map<string, string[]>()
  for (const error of errors) {
    const segments = error.instancePath.split('/').filter(Boolean).map(decodePointer)
    if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
      segments.push(error.params.missingProperty)
    }
    if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
      segments.push(error.params.additionalProperty)
    }
    const field = segments.join('.') || context || 'body'
    const format =
      error.keyword === 'format' && error.params.format !== 'email' ? String(error.params.format) : null
    const earlier = formats.get(field)
    if (format && earlier && !earlier.includes(format)) {
      earlier.push(format)
      byField.set(field, formatMessage(earlier))
    } else if (!byField.has(field)) {
      byField.set(field, describe(error))
      if (format) formats.set(field, [format])
    }
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}

const formatMessage = (formats: readonly string[]) => `must be a valid ${formats.join(' or ')}`

const decodePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~')

function describe(error: AjvError): string {
  switch (error.keyword) {
    case 'required':
      return 'is required'
    case 'format':
      return error.params.format === 'email'
        ? 'must be a valid email address'
        : formatMessage([String(error.params.format)])
    case 'additionalProperties':
      return 'is not a known field'
    default:
      return error.message ?? 'is not valid'
  }
}

/** Maps Fastify's own client errors to stable codes. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_content_length',
  FST_ERR_CTP_INVALID_MEDIA_TYPE_PARAMS: 'unsupported_media_type',
  FST_ERR_HANDLER_TIMEOUT: 'timeout',
}

/** `Payload Too Large` -> `payload_too_large`: the code of a framework error without its own. */
const codeOfStatus = (status: number) =>
  (STATUS_CODES[status] ?? 'bad_request')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')

export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string }
  if (Array.isArray(fe.validation)) {
    return new AppError(
      400,
      'validation_failed',
      'The request is not valid.',
      reasonsFromValidation(fe.validation, fe.validationContext),
    )
  }
  if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new AppError(400, 'validation_failed', 'The request is not valid.', [
      { field: 'body', message: 'is required' },
    ])
  }
  if (error instanceof SyntaxError || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError(400, 'malformed_json', 'The request body is not valid JSON.')
  }
  const status = fe.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(status, (fe.code && FASTIFY_CODES[fe.code]) ?? codeOfStatus(status), fe.message)
  }
  if (fe.code === 'FST_ERR_HANDLER_TIMEOUT') {
    return new AppError(503, 'timeout', 'The request took too long to handle.')
  }
  const fault = databaseFault(error)
  if (fault === 'unavailable') return databaseUnavailable()
  if (fault === 'storage_full') {
    storageState.reportFull()
    return storageFull()
  }
  return new AppError(500, 'internal_error', 'An error occurred in the service.')
}

/** Seconds a client is asked to wait before retrying a request the database could not take. */
const DATABASE_RETRY_AFTER_SECONDS = 5

/** The database cannot be reached (stopped, restarting, out of connections): nothing is wrong with the request. */
export const databaseUnavailable = () =>
  Object.assign(
    new AppError(503, 'database_unavailable', 'Cartage cannot reach its database; retry shortly.'),
    { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  )

/** The database's (or the file store's) disk is full: writes cannot be kept until space is freed. */
export const storageFull = () =>
  Object.assign(
    new AppError(
      507,
      'storage_full',
      'Cartage cannot store data: its storage is full. Retry once space is freed.',
    ),
    { retryAfterSeconds: 60 },
  )

/** The serialised error body of the flavour: the Core body or problem details. */
export function errorBody(flavor: ApiFlavor, error: AppError): { contentType: string; body: string } {
  if (flavor === 'core') {
    return {
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ message: error.message, code: error.code, reasons: [...error.reasons] }),
    }
  }
  return {
    contentType: 'application/problem+json; charset=utf-8',
    body: JSON.stringify(problemDetails(error)),
  }
}

const problemDetails = (error: AppError) => ({
  type: `https://cartage.dev/problems/${error.code.replace(/_/g, '-')}`,
  title: STATUS_CODES[error.status] ?? 'Error',
  status: error.status,
  detail: error.message,
  code: error.code,
  ...(error.reasons.length > 0 ? { errors: [...error.reasons] } : {}),
})

export function sendError(flavor: ApiFlavor, reply: FastifyReply, error: AppError) {
  const retryAfter = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds
  if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter))
  if (flavor === 'core') {
    return reply
      .code(error.status)
      .send({ message: error.message, code: error.code, reasons: [...error.reasons] })
  }
  return reply.code(error.status).type('application/problem+json').send(problemDetails(error))
}

const FAULT_NOTICE_INTERVAL_MS = 60_000
/** When each kind of database fault was last logged, for the whole process. */
const lastFaultNotice = new Map<string, number>()

export function installErrorHandling(app: FastifyInstance, flavor: ApiFlavor) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error)
    if (appError.code === 'database_unavailable' || appError.code === 'storage_full') {
      // One notice a minute for the operator, not one per request of an outage.
      const now = Date.now()
      if (now - (lastFaultNotice.get(appError.code) ?? 0) >= FAULT_NOTICE_INTERVAL_MS) {
        lastFaultNotice.set(appError.code, now)
        request.log.warn({ err: error, code: appError.code }, appError.message)
      }
    } else if (appError.status >= 500) {
      // The fault is logged with the request id; the client gets no message or stack.
      request.log.error({ err: error }, 'request failed')
    }
    return sendError(flavor, reply, appError)
  })
  // The 404 context's hooks are the app's plus these (route hooks are added per route: route-hooks.ts).
  const notFoundHooks = { preParsing: dropEmptyBodyType } as RouteShorthandOptions
  app.setNotFoundHandler(notFoundHooks, (request, reply) =>
    sendError(
      flavor,
      reply,
      new AppError(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
    ),
  )
}
