import type { FastifyInstance } from 'fastify'

/**
 * An operation that declares no body accepts an empty one whatever Content-Type says: generated
 * clients (NSwag, for one) send `Content-Type: application/json` with no content on bodiless
 * POSTs and PATCHes. Dropping the header before parsing lets Fastify skip the parser. An operation
 * that declares a body still answers an empty one with a 400 naming `body` (input-rules.ts).
 */
export function installEmptyBodyRule(app: FastifyInstance) {
  // A callback hook: it runs on every request, and needs no promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const headers = request.headers
    if (headers['content-type'] !== undefined && request.routeOptions.schema?.body === undefined) {
      const empty =
        headers['transfer-encoding'] === undefined &&
        (headers['content-length'] === undefined || headers['content-length'] === '0')
      if (empty) delete headers['content-type']
    }
    done(null, payload)
  })
}
