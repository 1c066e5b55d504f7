import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify'
import type { Database } from '../db/database.js'
import type { Authenticator } from '../security/authenticator.js'
import { installAuthentication } from './auth-hook.js'
import { enumKeywordPlugin } from './enums.js'
import type { ApiFlavor } from './envelopes.js'
import { installErrorHandling } from './error-handler.js'
import { registerHealthRoutes } from './health.js'
import { enumsForOpenApi } from './openapi.js'

export type HttpApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

export interface HttpAppOptions {
  flavor: ApiFlavor
  title: string
  description: string
  database: Database
  authenticator: Authenticator
  logger: FastifyBaseLogger | false
  bodyLimit: number
  trustProxy?: boolean | number | string
  securitySchemes: Record<string, unknown>
  tags: { name: string; description: string }[]
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops

/** Incoming ids are kept for tracing across services when they look sane; otherwise we mint one. */
const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * The shared HTTP kernel both APIs are built on: JSON parsing for every JSON media type,
 * case-insensitive paths, request ids, validation that reports every invalid field, one error
 * mapping, OpenAPI 3.1 at /openapi.json with a reference at /docs, and health probes.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: options.bodyLimit,
    // A hop count trusts that many proxies nearest to us.
    trustProxy:
      typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: true },
      plugins: [enumKeywordPlugin],
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  // Spec: bodies arrive as application/json, text/json or application/*+json; all parse the same way.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.addContentTypeParser('text/json', { parseAs: 'string' }, parseJson)
  app.addContentTypeParser(/^application\/[\w.-]+\+json$/, { parseAs: 'string' }, parseJson)
  // While draining, finished responses close their keep-alive connection, otherwise a client's
  // idle socket would hold the server open until the shutdown deadline.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id)
  })
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close')
  })
  installErrorHandling(app, options.flavor)
  installAuthentication(app, options.flavor, options.authenticator)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: '1.0' },
      components: { securitySchemes: options.securitySchemes as never },
      tags: [...options.tags, { name: 'Health', description: 'Liveness and readiness probes' }],
    },
    transformObject: (documentObject) =>
      enumsForOpenApi(
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
      ),
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, docExpansion: 'list' },
  })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  registerHealthRoutes(app, options.database, options.flavor)
  return app
}
