import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey, fieldsOf } from '../../../../test/fixtures.js'
import {
  coreAs,
  ownerSession,
  startTestContext,
  type TestContext,
  useTestContext,
} from '../../../../test/harness.js'

const URL_ = '/api/Address/get-from-text'
const at = (text: string) => `${URL_}?text=${encodeURIComponent(text)}`

describe('GET /api/Address/get-from-text (offline)', () => {
  const ctx = useTestContext()

  it('parses with a bearer token (no business needed) or an API key', async () => {
    const { core, signedIn, org } = await ownerSession(ctx)
    const response = await core({ url: at('221B Baker Street, London NW1 6XE') })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toMatchObject({
      number: '221B',
      street: 'Baker Street',
      city: 'London',
      country: 'GB',
    })
    const noBusiness = await ctx.core.inject({
      url: at('Cape Town'),
      headers: { authorization: `Bearer ${signedIn.accessToken}` },
    })
    expect(noBusiness.json().data.city).toBe('Cape Town')
    const key = coreAs(ctx, { apiKey: await createApiKey(ctx, signedIn.accessToken, org.businessId) })
    expect((await key({ url: at('10115 Berlin') })).json().data).toMatchObject({
      postcode: '10115',
      country: 'DE',
    })
  })

  it('answers 401 without a credential, 400 naming text for absurd text, 404 for nothing recognisable', async () => {
    expect((await ctx.core.inject({ url: at('Cape Town') })).statusCode).toBe(401)
    const { core } = await ownerSession(ctx)
    for (const bad of [
      '',
      '   ',
      '!!! ??? ...',
      'x'.repeat(501),
      `Cape${'\u0007'}Town`,
      `${'a'.repeat(61)} Street`,
    ]) {
      const response = await core({ url: at(bad) })
      expect(response.statusCode, JSON.stringify(bad)).toBe(400)
      expect(fieldsOf(response)).toEqual(['text'])
    }
    expect(fieldsOf(await core({ url: URL_ }))).toEqual(['text'])
    const unknown = await core({ url: at('qwxz plorf') })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('address_not_found')
  })
})

describe('GET /api/Address/get-from-text with GEOCODER_URL', () => {
  let server: Server
  let ctx: TestContext
  let requests = 0
  let mode: 'ok' | 'slow' | 'error' | 'empty' = 'ok'
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests++
      const q = new URL(request.url ?? '/', 'http://x').searchParams.get('q')
      if (mode === 'error') return response.writeHead(503).end()
      if (mode === 'empty') return response.writeHead(200, { 'content-type': 'application/json' }).end('[]')
      const body = JSON.stringify([
        {
          lat: '-33.9249',
          lon: '18.4241',
          display_name: `geocoded: ${q}`,
          importance: 0.73,
          address: {
            house_number: '12',
            road: 'Long Street',
            city: 'Cape Town',
            state: 'Western Cape',
            postcode: '8001',
            country_code: 'za',
          },
        },
      ])
      const send = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body)
      if (mode === 'slow') setTimeout(send, 1_500)
      else send()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    ctx = await startTestContext({ GEOCODER_URL: `http://127.0.0.1:${port}`, GEOCODER_TIMEOUT_MS: '300' })
  })
  afterAll(async () => {
    await ctx.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('asks the geocoder first and caches its answer', async () => {
    const { core } = await ownerSession(ctx)
    mode = 'ok'
    const before = requests
    const first = await core({ url: at('12 Long St Cape Town') })
    expect(first.json().data).toMatchObject({
      fullAddress: 'geocoded: 12 Long St Cape Town',
      number: '12',
      street: 'Long Street',
      city: 'Cape Town',
      country: 'ZA',
      latitude: -33.9249,
      confidence: 0.73,
    })
    await core({ url: at('12 long st cape town') })
    expect(requests - before).toBe(1)
  })

  it('falls back to the offline parser on a timeout, an error or no result', async () => {
    const { core } = await ownerSession(ctx)
    for (const [i, m] of (['slow', 'error', 'empty'] as const).entries()) {
      mode = m
      const response = await core({ url: at(`${i + 1} Main Road, Rondebosch, Cape Town, 7700`) })
      expect(response.statusCode, m).toBe(200)
      expect(response.json().data, m).toMatchObject({
        street: 'Main Road',
        suburb: 'Rondebosch',
        postcode: '7700',
      })
    }
  })
})
