import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type Reason, validationFailed } from '../errors.js'
import { addRouteHook } from './route-hooks.js'

/**
 * A query parameter the operation does not take is a 400 naming it, on every API operation: a
 * mistyped or unsupported parameter (`$fliter`, `PageSize` on a list that had only `perPage`)
 * would otherwise be ignored, and the answer would silently be something other than what was
 * asked for. Names match regardless of letter case, as everywhere. An operation whose query
 * schema says `additionalProperties: true` takes any others (the e-mail verification link,
 * which mail services may extend with tracking parameters). Framework routes (/docs,
 * /openapi.json) declare no access and are left alone.
 */
export function installUnknownQueryRule(app: FastifyInstance) {
  // Decided per route at start-up: the declared names in lower case, and the hook only where it can refuse.
  app.addHook('onRoute', (route) => {
    if (!route.config?.access) return
    const schema = (route.schema as { querystring?: unknown } | undefined)?.querystring
    const { properties, additionalProperties } = (
      schema !== null && typeof schema === 'object' ? schema : {}
    ) as { properties?: Record<string, unknown>; additionalProperties?: unknown }
    if (additionalProperties === true) return
    const declared = Object.keys(properties ?? {})
    const names = new Set(declared.map((name) => name.toLowerCase()))
    const takes =
      names.size === 0
        ? 'this operation takes no query parameters'
        : `this operation takes ${declared.join(', ')}`
    addRouteHook(
      route,
      'preValidation',
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        const query = request.query as Record<string, unknown> | undefined
        if (!query) return done()
        let unknown: string[] | undefined
        for (const name in query) {
          if (names.has(name.toLowerCase())) continue
          unknown = unknown ?? []
          unknown.push(name)
        }
        if (unknown === undefined) return done()
        const reasons: Reason[] = unknown.map((name) => ({
          field: name,
          message: `is not a query parameter of this operation; ${takes}`,
        }))
        done(validationFailed(reasons))
      },
    )
  })
}
