import { Type } from '@sinclair/typebox'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EnumType } from '../src/http/enums.js'
import { SingleResult, single } from '../src/http/envelopes.js'
import { errorResponses } from '../src/http/error-responses.js'
import { enumsForOpenApi } from '../src/http/openapi.js'
import { Nullable } from '../src/http/schema-helpers.js'
import { takeViolations } from './response-check.js'

// The checker that test/setup.ts installs on every app: a test-only app whose routes break their
// own declarations in each way the checker must notice. Each test drains the violations it expects,
// so only an unexpected one would fail it.

const Colour = EnumType(['Red', 'Green'] as const)
const app = Fastify({ ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true } } })
type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>
const ok = (data: unknown, handler: Handler = async () => data) => ({
  schema: {
    response: {
      200: SingleResult(
        'core',
        Type.Object({ n: Type.Integer(), colour: Colour, tint: Type.Optional(Nullable(Colour)) }),
      ),
      ...errorResponses('core', 400),
    },
  },
  handler,
})

beforeAll(async () => {
  app.get('/right', ok(single('core', { n: 1, colour: 'Red' })))
  // The serializer would quietly write "5" as 5, fail on "many" with a bare 500 that hides the
  // cause, and pass a lower-case enum name through.
  app.get('/coerced', ok(single('core', { n: '5', colour: 'Red' })))
  app.get('/wrong-type', ok(single('core', { n: 'many', colour: 'Red' })))
  app.get('/wrong-enum', ok(single('core', { n: 1, colour: 'red' })))
  app.get('/null-enum', ok(single('core', { n: 1, colour: null })))
  app.get('/nullable-enum', ok(single('core', { n: 1, colour: 'Green', tint: null })))
  app.get(
    '/undeclared-status',
    ok(null, async (_request, reply) => reply.code(409).send({ message: 'x', code: 'y', reasons: [] })),
  )
  app.get(
    '/wrong-error',
    ok(null, async (_request, reply) => reply.code(400).send({ message: 'no code' })),
  )
  app.get(
    '/wrong-media-type',
    ok(null, async (_request, reply) => reply.type('text/plain').send('hello')),
  )
  await app.ready()
})
afterAll(() => app.close())

const get = async (url: string) => {
  const response = await app.inject({ url })
  return { response, found: takeViolations() }
}

describe('response check', () => {
  it.each(['/right', '/nullable-enum'])('passes %s, which matches its declaration', async (url) => {
    const { response, found } = await get(url)
    expect(response.statusCode).toBe(200)
    expect(found).toEqual([])
  })

  it('reads enums as the published document lists them: null only where the enum is nullable', () => {
    // GET /api/settings/business sent `module: null` while its published enum did not list null.
    expect(enumsForOpenApi(Nullable(Colour))).toMatchObject({ enum: ['Red', 'Green', null] })
    expect(enumsForOpenApi(Colour)).toMatchObject({ enum: ['Red', 'Green'] })
  })

  it.each([
    ['/coerced', 200, /\/data\/n must be integer/],
    ['/wrong-type', 200, /\/data\/n must be integer/],
    ['/wrong-enum', 200, /\/data\/colour must be one of the enum names/],
    ['/null-enum', 200, /\/data\/colour must be one of the enum names/],
    ['/wrong-error', 400, /must have required property 'code'/],
    ['/undeclared-status', 409, /status 409 is not declared/],
    ['/wrong-media-type', 200, /content-type text\/plain/],
  ])('records %s with the route, status and the schema errors', async (url, status, problem) => {
    const { found } = await get(url)
    expect(found).toHaveLength(1)
    expect(found[0]?.route).toContain(`GET ${url}`)
    expect(found[0]?.status).toBe(status)
    expect(found[0]?.problem).toMatch(problem)
  })

  it('checks requests that match no route against the API error body', async () => {
    // Fastify's own 404 body is { message, error, statusCode }: not the Core error shape.
    const { found } = await get('/nowhere')
    expect(found).toHaveLength(1)
    expect(found[0]?.problem).toMatch(/required property 'code'/)
  })
})
