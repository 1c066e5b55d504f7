import { Type } from '@sinclair/typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../test/harness.js'
import { loadConfig } from '../config.js'
import type { Database } from '../db/database.js'
import { invalidField } from '../errors.js'
import { MemoryMailer } from '../mail/mailer.js'
import { createServices } from '../platform/services.js'
import { EnumType } from './enums.js'
import { type ApiFlavor, PagedResult, paged, SingleResult, single } from './envelopes.js'
import { errorResponses } from './error-responses.js'
import { createHttpApp, type HttpApp } from './kernel.js'
import { ListQuery, pageRequest } from './list-params.js'

const Priority = EnumType(['Low', 'Medium', 'High', 'Maximum'] as const)
const Module = EnumType(['Orders', 'Shipments', 'Customers'] as const, { base: 1 })

let database: Database
let dataDir: string
let close: () => Promise<void>
const apps: Record<ApiFlavor, HttpApp> = {} as Record<ApiFlavor, HttpApp>

async function buildApp(flavor: ApiFlavor) {
  const services = await createServices({ ...loadConfig({}), dataDir }, database, false, {
    eventHandlers: { handlers: [], declared: [] },
    mailer: new MemoryMailer(),
  })
  const app = await createHttpApp({
    flavor,
    title: 'test',
    description: 'test',
    database,
    authenticator: services.authenticator,
    logger: false,
    bodyLimit: 1024,
    securitySchemes: {},
    tags: [],
  })
  app.post(
    '/api/v1/Things',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'CreateThing',
        body: Type.Object({
          name: Type.String({ minLength: 1 }),
          priority: Priority,
          nested: Type.Optional(Type.Object({ count: Type.Integer() })),
        }),
        response: {
          200: SingleResult(flavor, Type.Object({ name: Type.String(), priority: Type.String() })),
          ...errorResponses(flavor, 400),
        },
      },
    },
    async (request) => (flavor === 'core' ? single('core', request.body) : single('global', request.body)),
  )
  app.get(
    '/api/things/:module',
    {
      config: { access: { public: true } },
      schema: {
        params: Type.Object({ module: Module }),
        querystring: ListQuery,
        response: { 200: PagedResult(flavor, Type.String()) },
      },
    },
    async (request) => paged(flavor, [request.params.module], 41, pageRequest(request.query)),
  )
  app.get('/boom', { config: { access: { public: true } } }, async () => {
    throw new Error('secret internal detail')
  })
  app.get('/coded', { config: { access: { public: true } } }, async () => {
    throw invalidField('$filter', "unknown field 'foo'")
  })
  return app
}

beforeAll(async () => {
  const opened = await openTestDatabase()
  database = opened.database
  dataDir = opened.dataDir
  apps.core = await buildApp('core')
  apps.global = await buildApp('global')
  close = async () => {
    await Promise.all([apps.core.close(), apps.global.close()])
    await opened.close()
  }
})
afterAll(() => close())

describe('envelopes', () => {
  it('writes Core statusCode as a name and Global as a number', async () => {
    const payload = { name: 'a', priority: 'Low' }
    const core = await apps.core.inject({ method: 'POST', url: '/api/v1/Things', payload })
    const global = await apps.global.inject({ method: 'POST', url: '/api/v1/Things', payload })
    expect(core.json()).toEqual({ data: { name: 'a', priority: 'Low' }, statusCode: 'OK', messages: [] })
    expect(global.json()).toEqual({ data: { name: 'a', priority: 'Low' }, statusCode: 200, messages: [] })
  })

  it('computes PagedResult fields consistently', async () => {
    const body = (await apps.core.inject({ url: '/api/things/1?Page=2&PageSize=20' })).json()
    expect(body).toEqual({
      data: ['Orders'],
      count: 1,
      totalCount: 41,
      page: 2,
      finalPage: 3,
      pageSize: 20,
      hasMore: true,
      statusCode: 'OK',
      messages: [],
    })
    const last = (await apps.core.inject({ url: '/api/things/1?Page=3' })).json()
    expect(last).toMatchObject({ page: 3, finalPage: 3, hasMore: false, pageSize: 20 })
    expect(paged('core', [], 0, { page: 1, pageSize: 20 })).toMatchObject({
      finalPage: 1,
      hasMore: false,
      count: 0,
      totalCount: 0,
    })
  })
})

describe('standard list parameters', () => {
  it.each([
    ['Page=0', 'Page'],
    ['Page=2147483648', 'Page'],
    ['PageSize=0', 'PageSize'],
    ['PageSize=101', 'PageSize'],
    ['Page=abc', 'Page'],
  ])('rejects %s with a 400 naming %s, never clamping', async (query, field) => {
    const response = await apps.core.inject({ url: `/api/things/1?${query}` })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'validation_failed', reasons: [{ field }] })
  })

  it('accepts the extremes', async () => {
    expect((await apps.core.inject({ url: '/api/things/1?Page=2147483647&PageSize=100' })).statusCode).toBe(
      200,
    )
  })
})

describe('enum codec', () => {
  it.each([['low'], ['LOW'], ['Low'], [0], ['0']])('reads %s as Low', async (priority) => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/api/v1/things',
      payload: { name: 'n', priority },
    })
    expect(response.json().data.priority).toBe('Low')
  })

  it('reads a 1-based enum (PermissionModule) by number or name in a path', async () => {
    expect((await apps.core.inject({ url: '/api/things/3' })).json().data).toEqual(['Customers'])
    expect((await apps.core.inject({ url: '/api/things/sHiPmEnTs' })).json().data).toEqual(['Shipments'])
    const bad = await apps.core.inject({ url: '/api/things/0' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().reasons[0].field).toBe('module')
  })

  it('rejects an unknown name naming the field', async () => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/api/v1/things',
      payload: { name: 'n', priority: 'urgent' },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().reasons).toEqual([
      { field: 'priority', message: expect.stringContaining('Low, Medium, High, Maximum') },
    ])
  })
})

describe('errors', () => {
  it('gives one reason per invalid field with its path', async () => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/api/v1/things',
      payload: { name: '', nested: { count: 'x' } },
    })
    expect(response.statusCode).toBe(400)
    expect(
      response
        .json()
        .reasons.map((r: { field: string }) => r.field)
        .sort(),
    ).toEqual(['name', 'nested.count', 'priority'])
  })

  it('maps a coded error thrown by a service', async () => {
    const response = await apps.core.inject({ url: '/coded' })
    expect(response.json()).toEqual({
      message: 'The request is not valid.',
      code: 'validation_failed',
      reasons: [{ field: '$filter', message: "unknown field 'foo'" }],
    })
  })

  it('answers an unknown route with 404 in each flavour', async () => {
    const core = await apps.core.inject({ url: '/api/nothing' })
    expect(core.statusCode).toBe(404)
    expect(core.json()).toMatchObject({ code: 'route_not_found', reasons: [] })
    const global = await apps.global.inject({ url: '/api/nothing' })
    expect(global.statusCode).toBe(404)
    expect(global.headers['content-type']).toContain('application/problem+json')
    expect(global.json()).toMatchObject({
      status: 404,
      title: 'Not Found',
      code: 'route_not_found',
      type: expect.stringMatching(/^https:\/\//),
    })
  })

  it('hides a fault behind a bare 500', async () => {
    const response = await apps.core.inject({ url: '/boom' })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({
      message: 'An error occurred in the service.',
      code: 'internal_error',
      reasons: [],
    })
    expect(response.body).not.toContain('secret')
    const global = await apps.global.inject({ url: '/boom' })
    expect(global.json()).toMatchObject({ status: 500, code: 'internal_error' })
    expect(global.body).not.toContain('secret')
  })

  it('answers malformed JSON with 400', async () => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/api/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('malformed_json')
  })

  it('answers an unsupported media type with 415', async () => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/api/v1/things',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().code).toBe('unsupported_media_type')
  })

  it('answers a body over the limit with 413', async () => {
    const response = await apps.global.inject({
      method: 'POST',
      url: '/api/v1/things',
      payload: { name: 'x'.repeat(2000), priority: 'Low' },
    })
    expect(response.statusCode).toBe(413)
    expect(response.json()).toMatchObject({ status: 413, code: 'payload_too_large' })
  })
})

describe('wire rules', () => {
  it.each([
    'application/json',
    'text/json',
    'application/vnd.cartage+json',
    'application/json; charset=utf-8',
  ])('accepts %s bodies', async (type) => {
    const response = await apps.core.inject({
      method: 'POST',
      url: '/api/v1/things',
      headers: { 'content-type': type },
      payload: '{"name":"a","priority":"high"}',
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data.priority).toBe('High')
  })

  it('matches paths regardless of letter case', async () => {
    for (const url of ['/api/v1/things', '/API/V1/THINGS', '/api/v1/Things']) {
      expect(
        (await apps.core.inject({ method: 'POST', url, payload: { name: 'a', priority: 1 } })).statusCode,
      ).toBe(200)
    }
  })

  it('returns a request id, keeping a sane incoming one', async () => {
    const minted = await apps.core.inject({ url: '/health/live' })
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const kept = await apps.core.inject({ url: '/health/live', headers: { 'x-request-id': 'trace-123' } })
    expect(kept.headers['x-request-id']).toBe('trace-123')
    const replaced = await apps.core.inject({ url: '/health/live', headers: { 'x-request-id': 'bad id\n' } })
    expect(replaced.headers['x-request-id']).not.toBe('bad id\n')
  })
})

describe('health and docs', () => {
  it('reports live and ready', async () => {
    expect((await apps.core.inject({ url: '/health/live' })).json()).toEqual({ status: 'ok' })
    expect((await apps.global.inject({ url: '/health/ready' })).json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', migrations: 'ok' },
    })
  })

  it('publishes OpenAPI 3.1 with enums as lists of names', async () => {
    const document = (await apps.core.inject({ url: '/openapi.json' })).json()
    expect(document.openapi).toBe('3.1.0')
    const operation = document.paths['/api/v1/Things'].post
    expect(operation.operationId).toBe('CreateThing')
    // The body is published under components.schemas and referenced from the operation.
    const ref = operation.requestBody.content['application/json'].schema.$ref as string
    const schema = document.components.schemas[ref.replace('#/components/schemas/', '')]
    expect(schema.properties.priority.enum).toEqual(['Low', 'Medium', 'High', 'Maximum'])
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '500']))
  })
})
