import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../test/harness.js'
import { loadConsoleSettings, sourceOf } from './console.js'

// The web console served by the Core API: the page, its hashed assets (compressed, cached for a
// year), the small config that says where the Global API is, and the Global API letting the
// console's own origin call it with the refresh cookie. Needs the built console (npm ci builds it;
// `npm run build:console` rebuilds it).

const assets = fileURLToPath(new URL('../../web/dist/assets/', import.meta.url))
const ctx = useTestContext({ CORE_PORT: '18080', GLOBAL_PORT: '18081' })

describe('the console on the Core API', () => {
  it('serves the page at / with a policy that lets it call only the two APIs, never cached', async () => {
    const response = await ctx.core.inject({ url: '/', headers: { host: 'localhost:18080' } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.body).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/)
    const policy = String(response.headers['content-security-policy'])
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("connect-src 'self' http://localhost:18081")
    expect(policy).toContain("frame-ancestors 'none'")
  })

  it('serves hashed assets compressed and cached for a year', async () => {
    const names = readdirSync(assets)
    // Files of 1 KB and more have compressed copies.
    const script = names.find((name) => name.endsWith('.js') && names.includes(`${name}.br`))
    expect(script, 'web/dist is built').toBeDefined()
    const brotli = await ctx.core.inject({
      url: `/assets/${script}`,
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(brotli.statusCode).toBe(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers['content-type']).toMatch(/javascript/)
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const gzip = await ctx.core.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    const missing = await ctx.core.inject({ url: '/assets/index-nothing.js' })
    expect(missing.statusCode).toBe(404)
  })

  it('tells the console where the Global API is, on the host the browser used', async () => {
    const response = await ctx.core.inject({
      url: '/console-config.json',
      headers: { host: '127.0.0.1:18080' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      globalApiUrl: 'http://127.0.0.1:18081',
      tileUrl: null,
      tileAttribution: null,
    })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('leaves every API path to the API: an unknown one is still a JSON 404', async () => {
    const response = await ctx.core.inject({ url: '/api/v1/no-such-thing' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) })
    expect((await ctx.core.inject({ url: '/openapi.json' })).statusCode).toBe(200)
  })
})

describe('the Global API and the console origin', () => {
  it('lets the console on this machine renew its session with the refresh cookie', async () => {
    for (const origin of ['http://localhost:18080', 'http://127.0.0.1:18080']) {
      const preflight = await ctx.global.inject({
        method: 'OPTIONS',
        url: '/api/auth/new-token',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
      expect(preflight.statusCode).toBe(204)
      expect(preflight.headers['access-control-allow-origin']).toBe(origin)
      expect(preflight.headers['access-control-allow-credentials']).toBe('true')
    }
  })

  it('gives another origin nothing', async () => {
    const preflight = await ctx.global.inject({
      method: 'OPTIONS',
      url: '/api/auth/new-token',
      headers: { origin: 'http://localhost:9999', 'access-control-request-method': 'POST' },
    })
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('console settings', () => {
  it('refuses a tile URL without {z}/{x}/{y} and a Global API URL that is not http(s)', () => {
    expect(() => loadConsoleSettings({ CONSOLE_TILE_URL: 'https://tiles.example.com/tile.png' })).toThrow(
      /CONSOLE_TILE_URL: must contain \{z\}, \{x\} and \{y\}/,
    )
    expect(() => loadConsoleSettings({ CONSOLE_GLOBAL_API_URL: 'ftp://id.example.com' })).toThrow(
      /CONSOLE_GLOBAL_API_URL/,
    )
    expect(
      loadConsoleSettings({ CONSOLE_TILE_URL: 'https://{s}.tile.example.com/{z}/{x}/{y}.png' }).tileUrl,
    ).toBe('https://{s}.tile.example.com/{z}/{x}/{y}.png')
  })

  it("allows the tile server's host, every subdomain of a {s} template, in the page's policy", () => {
    expect(sourceOf('https://{s}.tile.example.com/{z}/{x}/{y}.png')).toBe('https://*.tile.example.com')
    expect(sourceOf('http://tiles.local:8000/{z}/{x}/{y}.png')).toBe('http://tiles.local:8000')
    expect(sourceOf('http://127.0.0.1:18081')).toBe('http://127.0.0.1:18081')
  })
})
