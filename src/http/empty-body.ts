import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { addRouteHook, methodsOf } from './route-hooks.js'

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
 * The rule for a request no route matched (its 404 context takes no onRoute hooks): it declares no
 * body, so an empty one with a Content-Type is still a 404 rather than a parse error.
 */
export function dropEmptyBodyType(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) {
  if (request.headers['content-type'] !== undefined && isEmpty(request))
    delete request.headers['content-type']
  done(null, payload)
}

/** Methods Fastify reads no body for: the rule has nothing to do on a route that has only these. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE'])

/**
 * An operation that declares no body accepts an empty one whatever Content-Type says: generated
 * clients (NSwag, for one) send `Content-Type: application/json` with no content on bodiless
 * POSTs and PATCHes. Dropping the header before parsing lets Fastify skip the parser. So does an
 * action (a POST) whose body only has optional fields (`/ship`, `/reverse`: an effective date that
 * defaults to now): its empty body is read as `{}`. Any other operation that declares a body still
 * answers an empty one with a 400 naming `body` (input-rules.ts). Decided per route at start-up.
 */
export function installEmptyBodyRule(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route)
    if (methods.every((method) => BODYLESS.has(method))) return
    const body = (route.schema as { body?: unknown } | undefined)?.body
    const optionalOnly = asksNothing(body)
    // Callback hooks, and only on the routes that read a body.
    addRouteHook(
      route,
      'preParsing',
      (
        request: FastifyRequest,
        _reply: FastifyReply,
        payload: unknown,
        done: (e: null, p: unknown) => void,
      ) => {
        if (
          request.headers['content-type'] !== undefined &&
          (body === undefined || (optionalOnly && request.method === 'POST')) &&
          isEmpty(request)
        )
          delete request.headers['content-type']
        done(null, payload)
      },
    )
    if (!optionalOnly || !methods.includes('POST')) return
    addRouteHook(
      route,
      'preValidation',
      (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
        if (request.body === undefined && request.method === 'POST') request.body = {}
        done()
      },
    )
  })
}
