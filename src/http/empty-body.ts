import type { FastifyInstance, FastifyRequest } from 'fastify'

/** A body schema that an empty object satisfies: an object whose properties are all optional. */
function asksNothing(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  const { type, required } = schema as { type?: unknown; required?: unknown }
  return type === 'object' && (!Array.isArray(required) || required.length === 0)
}

const isEmpty = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] === undefined &&
  (request.headers['content-length'] === undefined || request.headers['content-length'] === '0')

/**
 * An operation that declares no body accepts an empty one whatever Content-Type says: generated
 * clients (NSwag, for one) send `Content-Type: application/json` with no content on bodiless
 * POSTs and PATCHes. Dropping the header before parsing lets Fastify skip the parser. So does an
 * action (a POST) whose body only has optional fields (`/ship`, `/reverse`: an effective date that
 * defaults to now): its empty body is read as `{}`. Any other operation that declares a body still
 * answers an empty one with a 400 naming `body` (input-rules.ts).
 */
export function installEmptyBodyRule(app: FastifyInstance) {
  // Callback hooks: they run on every request, and need no promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    // The header checks first: request.routeOptions builds a new object on every read.
    if (request.headers['content-type'] !== undefined && isEmpty(request)) {
      const body = request.routeOptions.schema?.body
      if (body === undefined || (request.method === 'POST' && asksNothing(body)))
        delete request.headers['content-type']
    }
    done(null, payload)
  })
  app.addHook('preValidation', (request, _reply, done) => {
    if (
      request.body === undefined &&
      request.method === 'POST' &&
      asksNothing(request.routeOptions.schema?.body)
    )
      request.body = {}
    done()
  })
}
