import type { TSchema } from '@sinclair/typebox'
import type { Action, PermissionModule } from '../security/permissions.js'
import { type ErrorStatus, errorResponses } from './error-responses.js'
import { CORE_SECURITY } from './security-schemes.js'

interface OperationSchema {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  response: TSchema
  errors: ErrorStatus[]
}

/**
 * Route options for the delivery modules: the declared permission and the OpenAPI fields every
 * route must carry (401 and 403 always), so each route states only what differs. The schema
 * types flow through, so handlers see typed params, query and body.
 */
export function operation<const S extends OperationSchema>(
  permission: readonly [PermissionModule, Action],
  schema: S,
) {
  const { response, errors, ...rest } = schema
  return {
    config: { access: { permission } },
    schema: {
      ...(rest as Omit<S, 'response' | 'errors'>),
      security: CORE_SECURITY,
      response: { 200: response as S['response'], ...errorResponses('core', 401, 403, ...errors) },
    },
  }
}
