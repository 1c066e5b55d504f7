import { Type } from '@sinclair/typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../test/harness.js'
import { loadConfig } from '../config.js'
import { createServices } from '../platform/services.js'
import { EnumType } from './enums.js'
import type { ApiFlavor } from './envelopes.js'
import { createHttpApp, type HttpApp } from './kernel.js'
import { DateTime } from './schema-helpers.js'

/** The input rules on routes built only for this test: shared schemas, query date-times, fallbacks. */
let close: () => Promise<void>
const apps = {} as Record<ApiFlavor, HttpApp>

async function buildApp(
  flavor: ApiFlavor,
  { database, dataDir }: Awaited<ReturnType<typeof openTestDatabase>>,
) {
  const services = await createServices({ ...loadConfig({}), dataDir }, database, false, {
    eventHandlers: { handlers: [], declared: [] },
  })
  const app = await createHttpApp({
    flavor,
    title: 'test',
    description: 'test',
    database,
    authenticator: services.authenticator,
    logger: false,
    bodyLimit: 1_048_576,
    securitySchemes: {},
    tags: [],
  })
  app.addSchema(
    Type.Object(
      { displayName: Type.String(), tags: Type.Array(Type.Object({ Label: Type.String() })) },
      { $id: 'Shared' },
    ),
  )
  const access = { config: { access: { public: true } } } as const
  app.post('/shared', { ...access, schema: { body: Type.Ref('Shared') } }, async (request) => request.body)
  app.get(
    '/dated',
    {
      ...access,
      schema: {
        querystring: Type.Object({
          at: DateTime(),
          count: Type.Optional(Type.Integer()),
          level: Type.Optional(EnumType(['Low', 'High'] as const)),
        }),
      },
    },
    async (request) => request.query,
  )
  app.post(
    '/nested',
    { ...access, schema: { body: Type.Object({ outer: Type.Object({ inner: Type.String() }) }) } },
    async (request) => request.body,
  )
  app.get('/fastify-shaped', access, async (_request, reply) =>
    reply.code(429).send({ statusCode: 429, error: 'Too Many Requests', message: 'slow down' }),
  )
  return app
}

beforeAll(async () => {
  const opened = await openTestDatabase()
  apps.core = await buildApp('core', opened)
  apps.global = await buildApp('global', opened)
  close = async () => {
    await Promise.all([apps.core.close(), apps.global.close()])
    await opened.close()
  }
})
afterAll(() => close())

describe('input rules in the kernel', () => {
  it('match names regardless of case through shared ($ref) schemas', async () => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/shared',
      payload: { DISPLAYNAME: 'x', Tags: [{ label: 'a' }] },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ displayName: 'x', tags: [{ Label: 'a' }] })
  })

  it('reads an offset-less date-time in a query string as UTC, and coerces decimal query integers', async () => {
    const response = await apps.global.inject({
      url: '/dated?AT=2026-01-31T09:15:00.1234567&Count=7&level=1',
    })
    expect(response.json()).toEqual({ at: '2026-01-31T09:15:00.1234567Z', count: 7, level: 'High' })
    const offset = await apps.global.inject({ url: '/dated?at=2026-01-31T09:15:00%2B02:00' })
    expect(offset.json().at).toBe('2026-01-31T09:15:00+02:00')
    const bad = await apps.global.inject({ url: '/dated?at=2026-01-31T09:15:00&count=0x10' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toEqual([{ field: 'count', message: 'must be an integer (decimal digits)' }])
  })

  it('names a case collision inside a nested object', async () => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/nested',
      headers: { 'content-type': 'application/json' },
      payload: '{"Outer":{"inner":"a","INNER":"b"}}',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().reasons).toEqual([
      {
        field: 'outer.inner',
        message: 'is given more than once, as inner and INNER (names match regardless of letter case)',
      },
    ])
  })

  it('answers a deeply nested body with a 4xx, never a 500', async () => {
    const depth = 200_000
    const response = await apps.core.inject({
      method: 'POST',
      url: '/nested',
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    })
    expect(response.statusCode).toBe(400)
  })

  it('rewrites an error body in Fastify’s default shape into the API’s shape', async () => {
    const core = await apps.core.inject({ url: '/fastify-shaped' })
    expect(core.statusCode).toBe(429)
    expect(core.json()).toEqual({ message: 'slow down', code: 'too_many_requests', reasons: [] })
    const global = await apps.global.inject({ url: '/fastify-shaped' })
    expect(global.headers['content-type']).toContain('application/problem+json')
    expect(global.json()).toMatchObject({ status: 429, code: 'too_many_requests', detail: 'slow down' })
  })
})
