import { Type } from '@sinclair/typebox'
import type { ApiFlavor } from './envelopes.js'

export const ReasonSchema = Type.Object({
  field: Type.String({ description: 'path of the invalid field as sent, e.g. user.email or $filter' }),
  message: Type.String(),
})

export const CoreErrorSchema = Type.Object(
  {
    message: Type.String(),
    code: Type.String({ description: 'stable error code; tests and clients branch on it, never on message' }),
    reasons: Type.Array(ReasonSchema, { description: 'for 400, one entry per invalid field' }),
  },
  { title: 'CoreError' },
)

export const ProblemDetailsSchema = Type.Object(
  {
    type: Type.String({ description: 'URI naming the problem type' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    code: Type.String(),
    errors: Type.Optional(Type.Array(ReasonSchema, { description: 'for 400, one entry per invalid field' })),
  },
  { title: 'ProblemDetails' },
)

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid; one reason per invalid field.',
  401: 'The credential is missing or not valid, or X-Business-Id names a business the caller cannot use.',
  403: 'The credential is valid but lacks the permission (on the Core API an expired token also gives 403).',
  404: 'The item does not exist or the business cannot see it.',
  409: 'The request conflicts with the current state.',
  413: 'The request body is larger than allowed.',
  415: 'The request body has an unsupported media type.',
  429: 'Too many requests; see Retry-After.',
  500: 'An error in the service.',
  503: 'The service cannot take the request now: its database is unreachable (code `database_unavailable`) or it is not ready; retry after Retry-After seconds.',
  507: 'The storage is full (code `storage_full`): nothing was written; retry once space is freed.',
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503 | 507

/**
 * Every route declares its error responses so the OpenAPI document is complete. 500, 503 (the
 * database unreachable) and 507 (storage full) can answer any operation, so they are always added.
 */
export function errorResponses(flavor: ApiFlavor, ...statuses: ErrorStatus[]) {
  const responses: Record<number, unknown> = {}
  for (const status of new Set([...statuses, 500 as const, 503 as const, 507 as const])) {
    responses[status] =
      flavor === 'core'
        ? { ...CoreErrorSchema, description: DESCRIPTIONS[status] }
        : {
            description: DESCRIPTIONS[status],
            content: { 'application/problem+json': { schema: ProblemDetailsSchema } },
          }
  }
  return responses
}
