import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify'
import type { Database } from '../db/database.js'
import { AppError } from '../errors.js'
import type { Authenticator } from '../security/authenticator.js'
import { installAuthentication } from './auth-hook.js'
import { installCors } from './cors.js'
import type { ApiFlavor } from './envelopes.js'
import { installErrorHandling, sendError } from './error-handler.js'
import { frameworkErrorOptions, installErrorShapeFallback } from './framework-errors.js'
import { declareFrameworkResponses } from './framework-responses.js'
import { registerHealthRoutes } from './health.js'
import { inputValidatorFactory, installInputRules } from './input-rules.js'
import { RedactingLogController, withRedaction } from './logging.js'
import { installMetrics, type MetricsOptions } from './metrics.js'
import { publishedOpenApi } from './openapi.js'
import type { OperationSchemaNames } from './openapi-names.js'
import { DOCS_CSP, installSecurityHeaders } from './security-headers.js'

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
  /** Names of request and response records in the document, by operationId. */
  schemaNames?: OperationSchemaNames
  /** Browser and operator settings (CORS origins, metrics); absent = none. */
  web?: { corsOrigins: readonly string[] } & MetricsOptions
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
    // Redaction lives here, so no app can log a request without it (see logging.ts).
    ...(options.logger ? { loggerInstance: withRedaction(options.logger) } : { logger: false }),
    logController: new RedactingLogController(),
    bodyLimit: options.bodyLimit,
    // A hop count trusts that many proxies nearest to us.
    trustProxy:
      typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    // While draining, the 503 comes from the onRequest hook below, in the API's error shape.
    return503OnClosing: false,
    ...frameworkErrorOptions(options.flavor),
    forceCloseConnections: 'idle',
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    // Input rules (no coercion of JSON bodies, names matched regardless of case...): input-rules.ts.
    schemaController: { compilersFactory: { buildValidator: inputValidatorFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>()

  // Spec: bodies arrive as application/json, text/json or application/*+json; all parse the same way.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.addContentTypeParser('text/json', { parseAs: 'string' }, parseJson)
  app.addContentTypeParser(/^application\/[\w.-]+\+json$/, { parseAs: 'string' }, parseJson)
  // Fastify also parses text/plain by default; the contract takes no such body, so it is a 415
  // like any other media type, instead of a string that then fails validation with a 400.
  app.removeContentTypeParser('text/plain')
  // While draining, finished responses close their keep-alive connection, otherwise a client's
  // idle socket would hold the server open until the shutdown deadline.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  // Callback hooks here and in security-headers.ts: they run on every request.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id)
    if (!closing) return done()
    void reply.header('connection', 'close')
    // Answered here: the hook does not call done, so the route never runs.
    sendError(options.flavor, reply, new AppError(503, 'shutting_down', 'The service is shutting down.'))
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close')
    done(null, payload)
  })
  installErrorHandling(app, options.flavor)
  declareFrameworkResponses(app, options.flavor)
  installErrorShapeFallback(app, options.flavor)
  installInputRules(app)
  installSecurityHeaders(app)
  await installCors(app, options.flavor, options.web?.corsOrigins ?? [])
  installMetrics(app, options.flavor, options.database.pool, options.web)
  installAuthentication(app, options.flavor, options.authenticator)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: '1.0' },
      components: { securitySchemes: options.securitySchemes as never },
      tags: [...options.tags, { name: 'Health', description: 'Liveness and readiness probes' }],
    },
    transformObject: (documentObject) =>
      publishedOpenApi(
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
        app.accessTable,
        options.schemaNames,
      ),
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, docExpansion: 'list' },
    staticCSP: DOCS_CSP,
  })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  registerHealthRoutes(app, options.database, options.flavor)
  return app
}
