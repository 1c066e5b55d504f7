import { connect } from 'node:net'
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { type Core, ownerSession, useTestContext } from '../../test/harness.js'
import type { HttpApp } from './kernel.js'

/** Responses Fastify and Node produce by themselves carry each API's own error shape. */
const ctx = useTestContext({ BODY_LIMIT_BYTES: '2048' })

function expectCoreError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toContain('application/json')
  expect(response.json()).toEqual({ message: expect.any(String), code, reasons: expect.any(Array) })
}

function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toContain('application/problem+json')
  expect(response.json()).toMatchObject({
    type: expect.stringMatching(/^https:/),
    title: expect.any(String),
    status,
    code,
  })
}

const LONG = 'a'.repeat(150)
let core: Core
beforeAll(async () => {
  core = (await ownerSession(ctx)).core
})

describe('framework responses in the Core shape and as problem details', () => {
  it('414 for a path parameter over the length limit', async () => {
    expectCoreError(await ctx.core.inject({ url: `/api/v1/Customers/${LONG}` }), 414, 'uri_too_long')
    expectProblem(
      await ctx.global.inject({ method: 'POST', url: `/api/auth/complete-invitation/${LONG}` }),
      414,
      'uri_too_long',
    )
  })

  it('400 for a URL that cannot be decoded', async () => {
    expectCoreError(await ctx.core.inject({ url: '/api/v1/Customers/%E0%A4%A' }), 400, 'bad_url')
    expectProblem(await ctx.global.inject({ url: '/api/business/%E0%A4%A' }), 400, 'bad_url')
  })

  it('413 for a body over the limit', async () => {
    const payload = { name: 'x'.repeat(4000) }
    expectCoreError(
      await core({ method: 'POST', url: '/api/v1/Customers', payload }),
      413,
      'payload_too_large',
    )
    expectProblem(
      await ctx.global.inject({ method: 'POST', url: '/api/auth/login', payload }),
      413,
      'payload_too_large',
    )
  })

  it('415 for an unsupported media type, text/plain included', async () => {
    for (const [type, payload] of [
      ['application/xml', '<a/>'],
      ['text/plain', '{"name":"Plain Shop"}'],
      ['text/plain; charset=utf-8', '{"email":"a@example.com","password":"x"}'],
    ] as const) {
      const request = { method: 'POST' as const, headers: { 'content-type': type }, payload }
      expectCoreError(await core({ ...request, url: '/api/v1/Customers' }), 415, 'unsupported_media_type')
      expectProblem(
        await ctx.global.inject({ ...request, url: '/api/auth/login' }),
        415,
        'unsupported_media_type',
      )
    }
    // Nothing was created from the refused body.
    expect((await core({ url: '/api/v1/Customers?$search=Plain%20Shop' })).json().totalCount).toBe(0)
  })

  it('400 for malformed JSON', async () => {
    const request = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    }
    expectCoreError(await core({ ...request, url: '/api/v1/Customers' }), 400, 'malformed_json')
    expectProblem(await ctx.global.inject({ ...request, url: '/api/auth/login' }), 400, 'malformed_json')
  })

  it('404 for an unknown route or method', async () => {
    expectCoreError(await ctx.core.inject({ url: '/api/nothing' }), 404, 'route_not_found')
    expectCoreError(
      await ctx.core.inject({ method: 'PUT', url: '/api/v1/Customers' }),
      404,
      'route_not_found',
    )
    expectProblem(
      await ctx.global.inject({ method: 'DELETE', url: '/api/auth/login' }),
      404,
      'route_not_found',
    )
  })

  it('406 from the upload plugin when the body is not multipart', async () => {
    const response = await core({
      method: 'POST',
      url: '/api/files/single',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    })
    expect(response.statusCode).toBeGreaterThanOrEqual(400)
    expect(response.json()).toEqual({
      message: expect.any(String),
      code: expect.any(String),
      reasons: expect.any(Array),
    })
  })
})

/** Raw HTTP over a socket: what Node answers before Fastify sees a request. */
async function rawExchange(app: HttpApp, request: string): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  // The server is closed with the context.
  return await new Promise<string>((resolve) => {
    const socket = connect(address.port, '127.0.0.1', () => socket.write(request))
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk.toString()
    })
    socket.on('close', () => resolve(received))
    socket.on('error', () => resolve(received))
  })
}

describe('client errors below Fastify', () => {
  it('answer a request that is not HTTP in each shape', async () => {
    const core = await rawExchange(ctx.core, 'NOT HTTP\r\n\r\n')
    expect(core).toMatch(/^HTTP\/1\.1 400/)
    expect(JSON.parse(core.slice(core.indexOf('\r\n\r\n') + 4))).toEqual({
      message: 'The request could not be read.',
      code: 'bad_request',
      reasons: [],
    })
  })

  it('answer oversized headers with 431 problem details on the Global API', async () => {
    const global = await rawExchange(
      ctx.global,
      `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(global).toMatch(/^HTTP\/1\.1 431/)
    expect(global).toContain('application/problem+json')
    expect(JSON.parse(global.slice(global.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 431,
      code: 'headers_too_large',
    })
  })
})
