import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import compress from '@fastify/compress'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawServerDefault,
  type RouteOptions,
} from 'fastify'
import { releaseActorHolder, withActorHolder } from '../db/actor.js'
import type { Database } from '../db/database.js'
import { AppError } from '../errors.js'
import type { Authenticator } from '../security/authenticator.js'
import { installAuthentication } from './auth-hook.js'
import { installCors } from './cors.js'
import { installCsvExport } from './csv-export.js'
import type { ApiFlavor } from './envelopes.js'
import { installErrorHandling, sendError } from './error-handler.js'
import { frameworkErrorOptions, inApiShape } from './framework-errors.js'
import { declareFrameworkResponses } from './framework-responses.js'
import { registerHealthRoutes } from './health.js'
import { installIdempotency } from './idempotency/idempotency.js'
import { inputValidatorFactory, installInputRules } from './input-rules.js'
import { RedactingLogController, withRedaction } from './logging.js'
import { installMetrics, type MetricsOptions } from './metrics.js'
import { publishedOpenApi } from './openapi.js'
import type { OperationSchemaNames } from './openapi-names.js'
import { addRouteHook, methodsOf } from './route-hooks.js'
import { DOCS_CSP, securityHeaders } from './security-headers.js'

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
  /** The document's OpenAPI 3.1 `webhooks`: what the API sends to its subscribers, by event type. */
  webhooks?: Record<string, unknown>
  /**
   * Browser and operator settings (CORS origins, metrics, the APIs' public URLs published as the
   * documents' `servers`); absent = none.
   */
  web?: { corsOrigins: readonly string[]; corePublicUrl?: string; globalPublicUrl?: string } & MetricsOptions
}

/**
 * Answers smaller than this go uncompressed: compressing a typical page or record costs more CPU
 * than it saves on the wire, and these are the hot paths. The reference (/openapi.json, the /docs
 * assets) and large pages are well above it.
 */
export const COMPRESS_THRESHOLD_BYTES = 16 * 1024

/** Media types worth compressing: JSON (problem+json too), text other than event streams, scripts. */
const COMPRESSIBLE =
  /^(text\/(?!event-stream)|application\/([\w.-]+\+)?json|application\/(javascript|x-yaml))/i

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops

/** Incoming ids are kept for tracing across services when they look sane; otherwise we mint one. */
const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/
/** Requests that write nothing of their own: no audit actor (db/actor.ts). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The shared HTTP kernel both APIs are built on: JSON parsing for every JSON media type,
 * case-insensitive paths, request ids, validation that reports every invalid field, one error
 * mapping, OpenAPI 3.1 at /openapi.json with a reference at /docs, compression of large answers,
 * and health probes.
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
  // The hooks every request passes through, one of each kind and callbacks, not promises: the
  // request id and security headers (set on request, so errors and 404s carry them too), the 503
  // while draining, and on send the error shape fallback and `Cache-Control: no-store`. The rest
  // (authentication, the actor, input rules, idempotency) are added per route at start-up, only
  // where they apply (route-hooks.ts).
  const headers = securityHeaders()
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id).headers(headers)
    if (!closing) return done()
    void reply.header('connection', 'close')
    // Answered here: the hook does not call done, so the route never runs.
    sendError(options.flavor, reply, new AppError(503, 'shutting_down', 'The service is shutting down.'))
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close')
    const sent = inApiShape(options.flavor, reply, payload)
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store')
    done(null, sent)
  })
  // A request that may write runs the rest of its hooks and its handler with a holder for its
  // actor (db/actor.ts), which the auth hook fills and the audit log's triggers read: first of the
  // route's hooks; released once the handler has answered (onSend comes after it, errors
  // included; onResponse in case it did not). Routes that only read get none.
  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route)
    if (methods.every((method) => READ_METHODS.has(method))) return
    addRouteHook(route, 'onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) =>
      READ_METHODS.has(request.method) ? done() : withActorHolder(request, request.id, done),
    )
    addRouteHook(
      route,
      'onSend',
      (
        request: FastifyRequest,
        _reply: FastifyReply,
        payload: unknown,
        done: (e: null, p: unknown) => void,
      ) => {
        releaseActorHolder(request)
        done(null, payload)
      },
    )
    addRouteHook(route, 'onResponse', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      releaseActorHolder(request)
      done()
    })
  })
  installErrorHandling(app, options.flavor)
  declareFrameworkResponses(app, options.flavor)
  // Before the input rules: it declares `$format` on list routes, which the unknown-query rule reads.
  installCsvExport(app)
  installInputRules(app)
  await installCors(app, options.flavor, options.web?.corsOrigins ?? [])
  installMetrics(app, options.flavor, options.database, options.web)
  installAuthentication(app, options.flavor, options.authenticator)
  installIdempotency(app, options.flavor, options.database.db)

  // Every tag an operation uses is declared (with its description) in the app's list: a module
  // that forgets its tag fails at start-up instead of publishing an undeclared one.
  const tags = [...options.tags, { name: 'Health', description: 'Liveness and readiness probes' }]
  const declaredTags = new Set(tags.map((tag) => tag.name))
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { tags?: unknown } | undefined
    for (const tag of Array.isArray(schema?.tags) ? schema.tags : []) {
      if (!declaredTags.has(tag))
        throw new Error(
          `${String(route.method)} ${route.url} uses the tag ${String(tag)}, which the app does not declare`,
        )
    }
    // A stored file is sent as it was stored: its Content-Length stays and no CPU goes into
    // compressing images and archives again.
    if (route.compress === undefined && answersBinary(route)) route.compress = false
  })
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    encodings: ['br', 'gzip', 'deflate'],
    // Request bodies are read as sent: a compressed upload is refused like any unknown encoding.
    globalDecompression: false,
  })

  const servers = serversOf(options)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        description: `${options.description} ${SERVERS_DESCRIPTION}`,
        version: '1.0',
      },
      components: { securitySchemes: options.securitySchemes as never },
      tags,
      ...(options.webhooks ? { webhooks: options.webhooks as never } : {}),
    },
    transformObject: (documentObject) =>
      publishedOpenApi(
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
        app.accessTable,
        options.schemaNames,
      ),
  })
  /** The document as served: the cached one, with the servers this request should use. */
  const served = (document: object, request: FastifyRequest) => {
    const { openapi, info, ...rest } = document as Record<string, unknown>
    return { openapi, info, servers: servers(request), ...rest }
  }
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The filter box narrows the operations by tag; deep links (#/Tag/OperationId) open one.
    uiConfig: { deepLinking: true, docExpansion: 'list', filter: true },
    staticCSP: DOCS_CSP,
    transformSpecification: served,
    // `served` changes nothing it was given, so the document need not be cloned per request.
    transformSpecificationClone: false,
  })
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => served(app.swagger(), request))
  registerHealthRoutes(app, options.database, options.flavor)
  return app
}

/** Whether a route's success answer is declared as raw bytes (a file download). */
function answersBinary(route: RouteOptions): boolean {
  const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {}
  return Object.entries(responses).some(
    ([status, response]) => status.startsWith('2') && JSON.stringify(response).includes('"format":"binary"'),
  )
}

const SERVERS_DESCRIPTION =
  '`servers` names the address to call: the API’s configured public URL, or else the scheme and host this document was requested at (as forwarded by a trusted proxy).'

/** A host as a client may name it: a name or address, an optional port. */
const HOST = /^([\w.-]+|\[[\da-f:.]+\])(:\d{1,5})?$/i

/**
 * The document's `servers`: the API's configured public URL (CORE_PUBLIC_URL / GLOBAL_PUBLIC_URL,
 * for a proxy with a path prefix or a fixed name), or else the origin the request for the
 * document came to: its scheme and Host, or X-Forwarded-Proto and X-Forwarded-Host when
 * TRUST_PROXY believes the proxy. A request without a usable Host gets a relative server.
 */
function serversOf(options: HttpAppOptions) {
  const configured = options.flavor === 'core' ? options.web?.corePublicUrl : options.web?.globalPublicUrl
  if (configured) {
    const fixed = [{ url: configured, description: `${options.title}: its public address` }]
    return () => fixed
  }
  return (request: FastifyRequest) => {
    const host = request.host
    return HOST.test(host)
      ? [
          {
            url: `${request.protocol}://${host}`,
            description: `${options.title}, as this document was requested`,
          },
        ]
      : [{ url: '/', description: `${options.title}, at the address this document came from` }]
  }
}
