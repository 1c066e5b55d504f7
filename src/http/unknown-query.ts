import type { FastifyInstance } from 'fastify'
import { type Reason, validationFailed } from '../errors.js'

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
  // Per route schema: the declared names in lower case, or 'any'.
  const declared = new WeakMap<object, ReadonlySet<string> | 'any'>()
  const namesOf = (schema: unknown): ReadonlySet<string> | 'any' => {
    if (schema === null || typeof schema !== 'object') return new Set()
    let names = declared.get(schema)
    if (!names) {
      const { properties, additionalProperties } = schema as {
        properties?: Record<string, unknown>
        additionalProperties?: unknown
      }
      names =
        additionalProperties === true
          ? 'any'
          : new Set(Object.keys(properties ?? {}).map((name) => name.toLowerCase()))
      declared.set(schema, names)
    }
    return names
  }
  // A callback hook: it runs on every request, and needs no promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined
    if (!query) return done()
    const given = Object.keys(query)
    if (given.length === 0) return done()
    // Read once: request.routeOptions builds a new object on every read.
    const route = request.routeOptions
    if (!route.config.access) return done()
    const schema = route.schema?.querystring
    const names = namesOf(schema)
    if (names === 'any') return done()
    const unknown = given.filter((name) => !names.has(name.toLowerCase()))
    if (unknown.length === 0) return done()
    const takes =
      names.size === 0
        ? 'this operation takes no query parameters'
        : `this operation takes ${Object.keys((schema as { properties: object }).properties).join(', ')}`
    const reasons: Reason[] = unknown.map((name) => ({
      field: name,
      message: `is not a query parameter of this operation; ${takes}`,
    }))
    done(validationFailed(reasons))
  })
}
