/**
 * Coded application errors. Services throw these; the HTTP kernel maps them to the
 * Core envelope `{ message, code, reasons }` or to Global problem details in one place.
 */

/** One entry per invalid field; `field` is the path as the client sent it (`user.email`, `$filter`). */
export interface Reason {
  field: string
  message: string
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reasons: readonly Reason[] = [],
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export const validationFailed = (reasons: readonly Reason[], message = 'The request is not valid.') =>
  new AppError(400, 'validation_failed', message, reasons)

/** A single invalid field: the common case for parameters parsed by hand ($filter, $orderby, enums). */
export const invalidField = (field: string, message: string) => validationFailed([{ field, message }])

export const unauthorized = (code = 'unauthorized', message = 'The credential is missing or not valid.') =>
  new AppError(401, code, message)

export const forbidden = (code = 'forbidden', message = 'The credential lacks the permission.') =>
  new AppError(403, code, message)

export const notFound = (code = 'not_found', message = 'The item does not exist.') =>
  new AppError(404, code, message)

export const conflict = (code: string, message: string) => new AppError(409, code, message)

export const tooManyRequests = (retryAfterSeconds: number) =>
  Object.assign(new AppError(429, 'rate_limited', 'Too many requests; try again later.'), {
    retryAfterSeconds,
  })

/**
 * A status move the record's state machine does not allow: 409 `invalid_status_transition`
 * naming both states (and, when given, the states the move is allowed from), with one reason on
 * `status`. Every state machine of the platform answers with this one shape.
 */
export function invalidTransition(
  record: string,
  from: string,
  to: string,
  allowedFrom: readonly string[] = [],
): AppError {
  const only = allowedFrom.length > 0 ? `; only ${allowedFrom.join(' or ')} can` : ''
  return new AppError(
    409,
    'invalid_status_transition',
    `${record} cannot move from ${from} to ${to}${only}.`,
    [{ field: 'status', message: `from ${from} to ${to} is not allowed` }],
  )
}
