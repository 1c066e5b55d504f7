import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { configureClients, coreFetch } from './clients'
import { client as globalClient } from './generated/global/client.gen'
import { SessionManager } from './session'

// The session against a fake Global API: what the console sends, and what it does with the answers.

type Handler = (request: Request) => Response | Promise<Response>
let handler: Handler = () => new Response(null, { status: 500 })
const seen: Request[] = []

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const session = (token: string, businessId: string | null = null) => ({
  data: {
    accessToken: token,
    expiresAtUtc: new Date(Date.now() + 900_000).toISOString(),
    organization: { id: 'org-1', slug: 'acme', name: 'Acme' },
    businessId,
  },
  statusCode: 200,
  messages: [],
})

beforeAll(() => {
  configureClients(
    { globalApiUrl: 'http://global.test', tileUrl: null, tileAttribution: null },
    new SessionManager(),
  )
  globalClient.setConfig({
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      seen.push(request)
      return handler(request)
    },
  })
})
afterEach(() => {
  seen.length = 0
  vi.unstubAllGlobals()
})

describe('the session', () => {
  it('renews once for callers that ask together, with the cookie (credentials) on the request', async () => {
    let calls = 0
    handler = async (request) => {
      calls++
      expect(new URL(request.url).pathname).toBe('/api/auth/new-token')
      expect(request.credentials).toBe('include')
      await new Promise((r) => setTimeout(r, 20))
      return json(200, session(`token-${calls}`))
    }
    const manager = new SessionManager()
    const [a, b] = await Promise.all([manager.token(), manager.token()])
    expect([a, b]).toEqual(['token-1', 'token-1'])
    expect(calls).toBe(1)
    expect(manager.current).toMatchObject({ status: 'signedIn', organization: { name: 'Acme' } })
    // A fresh token is used as it is, without asking again.
    expect(await manager.token()).toBe('token-1')
    expect(calls).toBe(1)
  })

  it('starts signed out with no notice when there is no cookie, and says so when the server is unreachable', async () => {
    handler = () =>
      json(401, { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'invalid_credential' })
    const noCookie = new SessionManager()
    await noCookie.start(null)
    expect(noCookie.current).toEqual({ status: 'signedOut', notice: null })

    handler = () => Promise.reject(new TypeError('Failed to fetch'))
    const offline = new SessionManager()
    await offline.start(null)
    expect(offline.current).toMatchObject({
      status: 'signedOut',
      notice: expect.stringContaining('Could not reach'),
    })
  })

  it('asks a person in several organisations to choose, then opens the chosen one with the selection token', async () => {
    handler = async (request) => {
      if (request.url.endsWith('/api/auth/login'))
        return json(200, {
          data: {
            requiresOrganizationSelection: true,
            session: null,
            selectionToken: 'sel-1',
            selectionExpiresAtUtc: new Date(Date.now() + 300_000).toISOString(),
            organizations: [
              { id: 'org-1', slug: 'acme', name: 'Acme', isOwner: true },
              { id: 'org-2', slug: 'other', name: 'Other', isOwner: false },
            ],
          },
          statusCode: 200,
          messages: [],
        })
      expect(request.headers.get('authorization')).toBe('Bearer sel-1')
      expect(await request.json()).toEqual({ organizationId: 'org-2' })
      return json(200, session('token-org-2'))
    }
    const manager = new SessionManager()
    await manager.signIn('ann@example.com', 'secret')
    expect(manager.current).toMatchObject({
      status: 'choosingOrganization',
      organizations: [{ name: 'Acme' }, { name: 'Other' }],
    })
    await manager.chooseOrganization('org-2')
    expect(manager.current).toMatchObject({ status: 'signedIn' })
    expect(await manager.token()).toBe('token-org-2')
  })

  it('lands a hand-off in the business its token names, and explains a used token', async () => {
    handler = async (request) => {
      expect(await request.json()).toEqual({ token: 'ott-1' })
      return json(200, session('token-h', 'branch-1'))
    }
    const manager = new SessionManager()
    await manager.start('ott-1')
    expect(manager.current).toMatchObject({ status: 'signedIn', handedOffBusinessId: 'branch-1' })

    handler = () =>
      json(401, { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'invalid_token' })
    const late = new SessionManager()
    await late.start('ott-1')
    expect(late.current).toMatchObject({
      status: 'signedOut',
      notice: expect.stringContaining('used already'),
    })
  })

  it('ends a session the server no longer renews, back to the sign-in form with a notice', async () => {
    handler = () => json(200, session('token-1'))
    const manager = new SessionManager()
    await manager.start(null)
    handler = () =>
      json(401, { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'session_ended' })
    await expect(manager.renew()).rejects.toMatchObject({ status: 401 })
    expect(manager.current).toMatchObject({
      status: 'signedOut',
      notice: expect.stringContaining('session has ended'),
    })
  })
})

describe('the Core API fetch', () => {
  it('sends the token and the business, renews an expired token once and sends the request again', async () => {
    const requests: Request[] = []
    vi.stubGlobal('fetch', async (request: Request) => {
      requests.push(request)
      return requests.length === 1
        ? json(403, { message: 'expired', code: 'token_expired', reasons: [] })
        : json(200, { data: true, statusCode: 'OK', messages: [] })
    })
    const fake = {
      businessId: 'business-1',
      token: async () => 'old',
      renew: async () => 'new',
      ended: vi.fn(),
    }
    const response = await coreFetch(fake)('http://core.test/api/v1/products/1/stock-movements', {
      method: 'POST',
      body: JSON.stringify({ type: 'Receipt' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(200)
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer new'])
    expect(requests.every((r) => r.headers.get('x-business-id') === 'business-1')).toBe(true)
    // The body went out again with the second attempt.
    expect(await requests[1]?.json()).toEqual({ type: 'Receipt' })
    expect(fake.ended).not.toHaveBeenCalled()
  })

  it('ends the session on a 401 that is not about the business', async () => {
    vi.stubGlobal('fetch', async () => json(401, { message: 'ended', code: 'session_ended', reasons: [] }))
    const fake = { businessId: 'b', token: async () => 't', renew: async () => 't', ended: vi.fn() }
    await coreFetch(fake)('http://core.test/api/me')
    expect(fake.ended).toHaveBeenCalledOnce()
    vi.stubGlobal('fetch', async () =>
      json(401, { message: 'no', code: 'business_not_accessible', reasons: [] }),
    )
    const other = { businessId: 'b', token: async () => 't', renew: async () => 't', ended: vi.fn() }
    await coreFetch(other)('http://core.test/api/v1/Customers')
    expect(other.ended).not.toHaveBeenCalled()
  })

  it('keeps the session while the database is away (503 database_unavailable)', async () => {
    const unavailable = () =>
      new Response(
        JSON.stringify({
          message: 'Cartage cannot reach its database; retry shortly.',
          code: 'database_unavailable',
          reasons: [],
        }),
        { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '5' } },
      )
    vi.stubGlobal('fetch', async () => unavailable())
    const fake = { businessId: 'b', token: async () => 't', renew: async () => 't', ended: vi.fn() }
    expect((await coreFetch(fake)('http://core.test/api/v1/Customers')).status).toBe(503)
    expect(fake.ended).not.toHaveBeenCalled()
  })
})

describe('renewing while the database is away', () => {
  it('stays signed in when the Global API answers 503', async () => {
    handler = () => json(200, session('token-1'))
    const manager = new SessionManager()
    await manager.start(null)
    handler = () =>
      json(503, { title: 'Service Unavailable', status: 503, code: 'database_unavailable', detail: 'away' })
    await expect(manager.renew()).rejects.toMatchObject({ status: 503, code: 'database_unavailable' })
    expect(manager.current).toMatchObject({ status: 'signedIn' })
  })
})
