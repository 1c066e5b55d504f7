import type { FastifyInstance, RouteOptions } from 'fastify'
import type { ApiFlavor } from './envelopes.js'
import { type ErrorStatus, errorResponses } from './error-responses.js'

/** Methods whose requests Fastify reads a body for (and so may refuse with 400, 413 or 415). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * Statuses the framework answers before a handler runs, declared on every route that can meet
 * them, so the published document and the wire agree without each route repeating them:
 * 400 everywhere (headers are always checked; bodies, queries and paths are validated), 413 and
 * 415 where a body is read.
 */
export function frameworkStatuses(route: Pick<RouteOptions, 'method'>): ErrorStatus[] {
  const readsBody = [route.method].flat().some((m) => BODY_METHODS.has(m))
  // Every request's headers are read (U+0000 or a lone surrogate in any of them is a 400).
  const statuses: ErrorStatus[] = [400]
  if (readsBody) statuses.push(413, 415)
  return statuses
}

export function declareFrameworkResponses(app: FastifyInstance, flavor: ApiFlavor) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined
    if (!schema?.response || schema.hide) return
    const declared = schema.response
    const missing = frameworkStatuses(route).filter((status) => !(status in declared))
    if (missing.length === 0) return
    // A new object: response maps may be shared between routes.
    route.schema = { ...route.schema, response: { ...errorResponses(flavor, ...missing), ...declared } }
  })
}
