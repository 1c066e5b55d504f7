import { describe, expect, it } from 'vitest'
import { createApiKey } from '../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../test/harness.js'

// What browsers and operators see on every answer: CORS for the configured origins only, security
// headers everywhere, and nothing that carries a token left in a cache.

const APP = 'https://app.example.com'

describe('with CORS_ORIGINS set', () => {
  const ctx = useTestContext({ CORS_ORIGINS: `${APP}, https://admin.example.com/` })

  it('answers a preflight on the Core API for a listed origin, allowing the credential headers', async () => {
    const response = await ctx.core.inject({
      method: 'OPTIONS',
      url: '/api/v1/Customers',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, x-business-id, content-type',
      },
    })
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe(APP)
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST')
    expect(String(response.headers['access-control-allow-headers'])).toContain('x-business-id')
    // Bearer tokens travel in a header on the Core API; cookies are not invited there.
    expect(response.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('allows credentials on the Global API so a web app can renew with the refresh cookie', async () => {
    const preflight = await ctx.global.inject({
      method: 'OPTIONS',
      url: '/api/auth/new-token',
      headers: { origin: 'https://admin.example.com', 'access-control-request-method': 'POST' },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('https://admin.example.com')
    expect(preflight.headers['access-control-allow-credentials']).toBe('true')

    const actual = await ctx.global.inject({
      method: 'GET',
      url: '/health/live',
      headers: { origin: APP },
    })
    expect(actual.headers['access-control-allow-origin']).toBe(APP)
    expect(actual.headers['access-control-allow-credentials']).toBe('true')
    expect(String(actual.headers['access-control-expose-headers'])).toContain('x-request-id')
    // A browser client can tell a replayed answer (Idempotency-Key) from a new one.
    expect(String(actual.headers['access-control-expose-headers'])).toContain('idempotent-replayed')
  })

  it('gives an unlisted origin no CORS headers', async () => {
    for (const app of [ctx.core, ctx.global]) {
      const response = await app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
      })
      // Without an allowed origin the browser refuses the response, whatever else is sent.
      expect(response.headers['access-control-allow-origin']).toBeUndefined()
    }
  })
})

describe('by default', () => {
  const ctx = useTestContext()

  it('allows no origin', async () => {
    const response = await ctx.core.inject({
      method: 'GET',
      url: '/health/live',
      headers: { origin: APP },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('sends security headers and no-store on every API answer, success or error', async () => {
    const answers = await Promise.all([
      ctx.core.inject({ url: '/health/live' }),
      ctx.core.inject({ url: '/api/v1/Customers' }), // 401
      ctx.global.inject({ url: '/no/such/route' }), // 404
      ctx.global.inject({ method: 'POST', url: '/api/auth/login', payload: {} }), // 400
    ])
    for (const response of answers) {
      const label = `${response.statusCode} ${response.raw.req.url}`
      expect(response.headers['content-security-policy'], label).toContain("default-src 'none'")
      expect(response.headers['content-security-policy'], label).toContain("frame-ancestors 'none'")
      expect(response.headers['x-content-type-options'], label).toBe('nosniff')
      expect(response.headers['x-frame-options'], label).toBe('SAMEORIGIN')
      expect(response.headers['referrer-policy'], label).toBe('no-referrer')
      expect(response.headers['cache-control'], label).toBe('no-store')
      expect(response.headers['x-powered-by'], label).toBeUndefined()
    }
  })

  it('never lets a cache keep a token: login, select-organization, new-token, ott, API keys', async () => {
    const { org, signedIn } = await ownerSession(ctx)
    const bearer = { authorization: `Bearer ${signedIn.accessToken}` }
    const login = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: org.email, password: org.password },
    })
    const cookie = login.cookies.find((c) => c.name === 'cartage_refresh')
    const answers = {
      login,
      select: await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/select-organization',
        headers: { cookie: `cartage_refresh=${cookie?.value}` },
        payload: { businessId: org.businessId },
      }),
      newToken: await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/new-token',
        headers: { cookie: signedIn.refreshCookie },
      }),
      ott: await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/ott',
        headers: { ...bearer, 'x-business-id': org.businessId },
        payload: {},
      }),
      apiKeys: await ctx.global.inject({ url: '/api/auth/tokens', headers: bearer }),
    }
    for (const [name, response] of Object.entries(answers)) {
      expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(500)
      expect(response.headers['cache-control'], name).toBe('no-store')
    }
    expect(answers.login.statusCode).toBe(200)
    expect(answers.newToken.statusCode).toBe(200)
    const apiKey = await createApiKey(ctx, signedIn.accessToken, org.businessId)
    const withKey = await ctx.core.inject({ url: '/api/me', headers: { 'x-dispatch-api-key': apiKey } })
    expect(withKey.headers['cache-control']).toBe('no-store')
  })

  it('lets the /docs page load its own scripts and styles, and nothing from elsewhere', async () => {
    for (const app of [ctx.core, ctx.global]) {
      const page = await app.inject({ url: '/docs' })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('swagger-ui-bundle.js')
      const csp = String(page.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("style-src 'self' 'unsafe-inline'")
      expect(csp).toContain("img-src 'self' data:")
      expect(csp).not.toContain('https:')
      expect(csp).not.toContain('upgrade-insecure-requests')
      const script = await app.inject({ url: '/docs/static/swagger-ui-bundle.js' })
      expect(script.statusCode).toBe(200)
    }
  })
})
