import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import type { ApiFlavor } from './envelopes.js'
import { errorBody, sendError, toAppError } from './error-handler.js'

/**
 * Responses Fastify and Node produce on their own (bad URL, over-long path parameter, client
 * errors such as timeouts and oversized headers, the 503 while draining) in the API's error
 * shape: the Core body on the Core API, problem details on the Global API.
 */
function fromFrameworkError(error: FastifyError): AppError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new AppError(400, 'bad_url', 'The URL is not valid.')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(414, 'uri_too_long', 'A path parameter is longer than allowed.')
    default:
      return toAppError(error)
  }
}

function fromClientError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(408, 'request_timeout', 'The request took too long to arrive.')
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'headers_too_large', 'The request headers are larger than allowed.')
    default:
      return new AppError(400, 'bad_request', 'The request could not be read.')
  }
}

/** Fastify server options routing its own errors through the API's error shape. */
export function frameworkErrorOptions(flavor: ApiFlavor) {
  return {
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      sendError(flavor, reply, fromFrameworkError(error)),
    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      const appError = fromClientError(error)
      const { contentType, body } = errorBody(flavor, appError)
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Content-Type: ${contentType}\r\nConnection: close\r\n\r\n${body}`,
        )
      }
      socket.destroy(error)
    },
  }
}

interface FastifyDefaultError {
  statusCode: number
  error: string
  message?: string
  code?: string
}

const isFastifyDefault = (value: unknown): value is FastifyDefaultError =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as FastifyDefaultError).statusCode === 'number' &&
  typeof (value as FastifyDefaultError).error === 'string'

/**
 * Last line of defence, called on every answer (kernel.ts): the payload, or the API's error body
 * when it is an error body in Fastify's default shape (from a path that bypasses the error
 * handler, such as a plugin answering by itself).
 */
export function inApiShape(flavor: ApiFlavor, reply: FastifyReply, payload: unknown): unknown {
  if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.includes('"statusCode"'))
    return payload
  let parsed: unknown
  try {
    parsed = JSON.parse(payload)
  } catch {
    return payload
  }
  if (!isFastifyDefault(parsed)) return payload
  const appError = toAppError(
    Object.assign(new Error(parsed.message ?? parsed.error), {
      statusCode: reply.statusCode,
      code: parsed.code,
    }) as FastifyError,
  )
  const { contentType, body } = errorBody(flavor, appError)
  void reply.type(contentType)
  return body
}
