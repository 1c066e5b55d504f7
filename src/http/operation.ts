import type { TSchema } from '@sinclair/typebox'
import type { Access } from '../security/auth-context.js'
import type { Action, PermissionModule } from '../security/permissions.js'
import type { ApiFlavor } from './envelopes.js'
import { type ErrorStatus, errorResponses } from './error-responses.js'
import { BEARER_OR_API_KEY, CORE_SECURITY } from './security-schemes.js'

/** Who may call a route: a module permission (the usual case), or one of the other access kinds. */
export type RouteAccess = readonly [PermissionModule, Action] | Access

interface OperationSchema {
  /** The API the route belongs to; Core unless said. It decides the envelopes and error shape. */
  api?: ApiFlavor
  operationId: string
  summary: string
  description?: string
  tags: readonly string[]
  params?: TSchema
  querystring?: TSchema
  headers?: TSchema
  body?: TSchema
  /** Media types of the body other than JSON (an upload). */
  consumes?: readonly string[]
  /** The success (200) body. */
  response: TSchema
  /** The errors the route itself can answer; those its access implies (401, 403) are added. */
  errors: readonly ErrorStatus[]
  /** The OpenAPI security requirement, when it is not the one its API and access imply. */
  security?: readonly Record<string, string[]>[]
}

const accessOf = (access: RouteAccess): Access =>
  Array.isArray(access) ? { permission: access as readonly [PermissionModule, Action] } : (access as Access)

/**
 * 401 without a usable credential; 403 for a missing permission, an API key on a route only a
 * person may call, or on the Core API an expired token.
 */
function impliedErrors(api: ApiFlavor, access: Access): ErrorStatus[] {
  if ('public' in access) return []
  if ('permission' in access || access.personOnly || api === 'core') return [401, 403]
  return [401]
}

/**
 * Route options for every route of both APIs: the declared access (checked by the auth hook and
 * listed in the permission table), and the OpenAPI fields each route must carry, so a route states
 * only what is its own. The schema types flow through, so handlers see typed params, query and body.
 *
 * ```ts
 * app.get('/api/v1/vehicles/:vehicleId', operation(['Vehicles', 'View'], {
 *   operationId: 'GetVehicle', summary: 'One vehicle', tags: ['Vehicles'],
 *   params: VehicleParams, response: SingleResult('core', VehicleResponse), errors: [400, 404],
 * }), handler)
 * ```
 */
export function operation<const S extends OperationSchema>(access: RouteAccess, schema: S) {
  const { api = 'core', response, errors, security, ...rest } = schema
  const declared = accessOf(access)
  const statuses = [...new Set([...errors, ...impliedErrors(api, declared)])].sort() as ErrorStatus[]
  const inBusiness = 'permission' in declared || ('signedIn' in declared && declared.business)
  const credentials =
    'public' in declared ? [] : api === 'core' && inBusiness ? CORE_SECURITY : BEARER_OR_API_KEY
  // A route only a person may call does not offer the API key scheme.
  const defaultSecurity =
    'public' in declared || !declared.personOnly
      ? credentials
      : credentials.filter((requirement) => !('apiKey' in requirement))
  return {
    config: { access: declared },
    schema: {
      ...(rest as Omit<S, 'api' | 'response' | 'errors' | 'security'>),
      security: (security ?? defaultSecurity) as Record<string, string[]>[],
      response: { 200: response as S['response'], ...errorResponses(api, ...statuses) },
    },
  }
}
