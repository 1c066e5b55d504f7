import { subscribe } from 'node:diagnostics_channel'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CoreErrorSchema, ProblemDetailsSchema } from '../src/http/error-responses.js'

/**
 * Every response sent by any Fastify app built in a test process is checked against the response
 * schema its route declares for its status code. The check is strict where Fastify's serializer is
 * forgiving: no type coercion, nothing removed, enum names exactly as declared. A violation is
 * recorded here and fails the test that made the request (see test/setup.ts).
 *
 * Installed through Fastify's `fastify.initialization` diagnostics channel, so apps built by the
 * harness, by a test itself or by a second "process" are all covered without any app opting in.
 */

export interface ResponseViolation {
  route: string
  status: number
  problem: string
}

const violations: ResponseViolation[] = []

/** Violations recorded since the last call (the test setup fails the current test with them). */
export function takeViolations(): ResponseViolation[] {
  return violations.splice(0)
}

export function formatViolations(list: readonly ResponseViolation[]): string {
  return list.map((v) => `${v.route} -> ${v.status}: ${v.problem}`).join('\n')
}

interface EnumSpec {
  names: readonly string[]
}

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  validateSchema: false,
})
addFormats.default(ajv)
// Documentation-only formats: file contents (never JSON) and PEM text.
ajv.addFormat('binary', true)
ajv.addFormat('pem', true)
// The enum codec accepts many spellings on the way in; on the way out only the exact names, as
// the published document lists them (`enum`, which lists null only for a nullable enum).
ajv.addKeyword({
  keyword: 'x-enum',
  schemaType: 'object',
  errors: true,
  compile(spec: EnumSpec, parent) {
    const { type } = parent as { type?: unknown }
    const nullable = Array.isArray(type) && type.includes('null')
    const validate: { (data: unknown): boolean; errors?: Partial<ErrorObject>[] } = (data: unknown) => {
      if (spec.names.includes(data as string) || (nullable && data === null)) return true
      validate.errors = [
        {
          keyword: 'x-enum',
          message: 'must be one of the enum names',
          params: { allowedValues: spec.names },
        },
      ]
      return false
    }
    return validate
  },
})

const compiled = new WeakMap<object, ValidateFunction>()
function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = ajv.compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

/** Requests that match no route get the API's error body: problem details or the Core error. */
const unrouted = {
  problem: { content: { 'application/problem+json': { schema: ProblemDetailsSchema } } },
  core: CoreErrorSchema,
}

interface ContentDeclaration {
  content: Record<string, { schema?: object }>
}
type ResponseDeclaration = object | ContentDeclaration
const hasContent = (d: ResponseDeclaration): d is ContentDeclaration =>
  typeof (d as ContentDeclaration).content === 'object'

function declarationFor(
  responses: Record<string, ResponseDeclaration>,
  status: number,
): ResponseDeclaration | undefined {
  return responses[status] ?? responses[`${String(status)[0]}xx`] ?? responses.default
}

function mediaTypeOf(reply: FastifyReply): string {
  const header = reply.getHeader('content-type')
  return String(header ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase() as string
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json')

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`)
    .join('; ')
}

function bodyText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload
  if (Buffer.isBuffer(payload)) return payload.toString('utf8')
  return undefined // a stream: a file download, never JSON here
}

type Resolved = { skip: true } | { problem: string } | { declaration: ResponseDeclaration }

/** The declaration for this response's status, or why there is none. */
function resolve(request: FastifyRequest, reply: FastifyReply, mediaType: string): Resolved {
  if (request.is404 && !request.routeOptions.url)
    return { declaration: mediaType === 'application/problem+json' ? unrouted.problem : unrouted.core }
  const schema = request.routeOptions.schema as
    | { hide?: boolean; response?: Record<string, ResponseDeclaration> }
    | undefined
  // Hidden routes (the OpenAPI document, the reference page) are outside the API surface;
  // routes with no response map at all are test-only routes (test/openapi.test.ts makes every
  // real operation declare its responses).
  if (!schema?.response || schema.hide) return { skip: true }
  const declaration = declarationFor(schema.response, reply.statusCode)
  if (!declaration)
    return {
      problem: `status ${reply.statusCode} is not declared (declared: ${Object.keys(schema.response)})`,
    }
  return { declaration }
}

function validateBody(schema: object, body: unknown, text: string): string | undefined {
  const validate = validatorFor(schema)
  if (validate(body)) return undefined
  return `body does not match the declared schema: ${describeErrors(validate.errors)}; body: ${text.slice(0, 300)}`
}

/**
 * The object a handler (or the error handler) sends, before Fastify's serializer sees it: the
 * serializer would quietly coerce a wrong type ("12" to 12) or fail with a 500 that hides the cause.
 */
export function checkObject(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | undefined {
  const resolved = resolve(request, reply, mediaTypeOf(reply))
  if ('skip' in resolved) return undefined
  if ('problem' in resolved) return resolved.problem
  const { declaration } = resolved
  if (declaresNoBody(declaration)) return 'a body was sent where the route declares none'
  const schema = hasContent(declaration)
    ? (contentFor(declaration, mediaTypeOf(reply)) ?? Object.values(declaration.content)[0])?.schema
    : declaration
  if (!schema) return undefined
  let text: string
  try {
    // What a plain JSON writer sends: dates as ISO strings, undefined properties left out.
    text = JSON.stringify(payload)
  } catch (error) {
    return `body cannot be written as JSON: ${String(error)}`
  }
  return validateBody(schema, JSON.parse(text), text)
}

/** The declared media type that covers `mediaType`: exact, then `type/*`, then `*\/*`. */
function contentFor(declaration: ContentDeclaration, mediaType: string) {
  const { content } = declaration
  return content[mediaType] ?? content[`${mediaType.split('/')[0]}/*`] ?? content['*/*']
}

/** `type: 'null'` (or no schema at all) is how a route says "no body" (no content in OpenAPI). */
const declaresNoBody = (declaration: ResponseDeclaration) =>
  !hasContent(declaration) &&
  ((declaration as { type?: unknown }).type === 'null' ||
    Object.keys(declaration).every((key) => key === 'description'))

/** The response as sent: its status, media type and body. */
export function checkSent(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | undefined {
  const status = reply.statusCode
  const mediaType = mediaTypeOf(reply)
  const resolved = resolve(request, reply, mediaType)
  if ('skip' in resolved) return undefined
  if ('problem' in resolved) return resolved.problem
  if (request.method === 'HEAD') return undefined
  const { declaration } = resolved
  const text = bodyText(payload)
  const empty = payload === undefined || payload === null || text === ''
  if (declaresNoBody(declaration) || status === 204)
    return empty ? undefined : `a body was sent where the route declares none: ${text?.slice(0, 200)}`
  // An empty file or page is still a file or page; only a declared JSON body must be present.
  if (empty)
    return hasContent(declaration) && !Object.keys(declaration.content).some(isJson)
      ? undefined
      : 'no body was sent where the route declares one'
  let schema: object | undefined = declaration
  if (hasContent(declaration)) {
    const entry = contentFor(declaration, mediaType)
    if (!entry)
      return `content-type ${mediaType || '(none)'} is not declared (declared: ${Object.keys(declaration.content)})`
    schema = entry.schema
  } else if (mediaType !== 'application/json') {
    // A bare schema is Fastify's shorthand for an application/json body.
    return `content-type ${mediaType || '(none)'} sent where the route declares an application/json body`
  }
  if (!schema || !isJson(mediaType) || text === undefined) return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return `body is not JSON: ${text.slice(0, 200)}`
  }
  return validateBody(schema, body, text)
}

const recorded = new WeakSet<FastifyRequest>()
function record(request: FastifyRequest, reply: FastifyReply, problem: string | undefined) {
  // One violation per request: the first is the cause (a serializer failure then sends a 500).
  if (!problem || recorded.has(request)) return
  recorded.add(request)
  const route = request.routeOptions.url
    ? `${request.method} ${request.routeOptions.url} (${request.url})`
    : `${request.method} ${request.url} (no route)`
  violations.push({ route, status: reply.statusCode, problem })
}

export function installResponseCheck(app: FastifyInstance) {
  app.addHook('preSerialization', async (request, reply, payload) => {
    record(request, reply, checkObject(request, reply, payload))
    return payload
  })
  app.addHook('onSend', async (request, reply, payload) => {
    record(request, reply, checkSent(request, reply, payload))
    return payload
  })
}

let installed = false
/** Subscribes once per test process: every Fastify app created afterwards is checked. */
export function checkEveryResponse() {
  if (installed) return
  installed = true
  subscribe('fastify.initialization', (message) => {
    installResponseCheck((message as { fastify: FastifyInstance }).fastify)
  })
}
