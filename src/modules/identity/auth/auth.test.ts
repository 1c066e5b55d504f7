import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { importPKCS8, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addMembership,
  createApiKey,
  organizationIdOf,
  PAST_STATE_TTL,
  sharedOrganisation,
  sleep,
} from '../../../../test/fixtures.js'
import {
  coreAs,
  type RegisteredOrganization,
  registerOrganization,
  secondCoreApp,
  signIn,
  uniqueEmail,
  useTestContext,
} from '../../../../test/harness.js'
import { ACCESS_AUDIENCE, ISSUER, signingKeyFile } from '../../../security/signing.js'

const ctx = useTestContext()

// Tests about a session need a session of their own, not an organisation of their own: they
// sign in afresh to one account registered once for the file. A user with several organisations
// is a new one each time (once in a second organisation, every sign-in of theirs asks which), who
// joins this account's organisation; `sharedOrganisation(ctx)` is an organisation none of them is in.
const account = {} as RegisteredOrganization
beforeAll(async () => {
  Object.assign(account, await registerOrganization(ctx))
})
async function freshSession() {
  const signedIn = await signIn(ctx, account)
  const credential = { accessToken: signedIn.accessToken, businessId: account.businessId }
  return { org: account, signedIn, credential, core: coreAs(ctx, credential) }
}

const login = (email: string, password: string) =>
  ctx.global.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
const refreshWith = (cookie: string) =>
  ctx.global.inject({ method: 'POST', url: '/api/auth/new-token', headers: { cookie } })

describe('POST /api/auth/login', () => {
  it('gives one membership a session and a hardened refresh cookie', async () => {
    const response = await login(account.email.toUpperCase(), account.password)
    expect(response.statusCode).toBe(200)
    const data = response.json().data
    expect(data).toMatchObject({
      requiresOrganizationSelection: false,
      selectionToken: null,
      organizations: null,
      selectionExpiresAtUtc: null,
    })
    expect(data.session.accessToken.split('.')).toHaveLength(3)
    expect(new Date(data.session.expiresAtUtc).getTime() - Date.now()).toBeGreaterThan(14 * 60_000)
    expect(data.session.businessId).toBeNull()
    expect(data.session.organization).toMatchObject({
      name: 'Test Org',
      slug: expect.stringMatching(/^test-org/),
    })
    const cookie = String(response.headers['set-cookie'])
    expect(cookie).toMatch(/^cartage_refresh=crt_/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Secure/)
    expect(cookie).toMatch(/Path=\/api\/auth/)
  })

  it('answers a wrong password and an unknown email with the same 401', async () => {
    // One failure: far below the sign-in throttle, which the account's later sign-ins would meet.
    const wrong = await login(account.email, 'not-the-password')
    const unknown = await login(uniqueEmail('nobody'), 'whatever-password')
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(wrong.json()).toEqual(unknown.json())
    expect(wrong.json()).toMatchObject({ status: 401, code: 'invalid_credentials' })
  })

  it('asks a user with several organisations to choose, then issues a session for the chosen one', async () => {
    const first = await registerOrganization(ctx)
    const second = account
    const secondOrganizationId = await organizationIdOf(ctx, second.businessId)
    await addMembership(ctx, secondOrganizationId, first.userId)

    const response = await login(first.email, first.password)
    const data = response.json().data
    expect(data.requiresOrganizationSelection).toBe(true)
    expect(data.session).toBeNull()
    expect(response.headers['set-cookie']).toBeUndefined()
    expect(data.organizations).toHaveLength(2)
    expect(data.organizations.find((o: { id: string }) => o.id === secondOrganizationId).isOwner).toBe(false)
    const expiresIn = new Date(data.selectionExpiresAtUtc).getTime() - Date.now()
    expect(expiresIn).toBeGreaterThan(4 * 60_000)
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000)

    const select = (organizationId: string, token = data.selectionToken) =>
      ctx.global.inject({
        method: 'POST',
        url: '/api/auth/select-organization',
        headers: { authorization: `Bearer ${token}` },
        payload: { organizationId },
      })
    const chosen = await select(secondOrganizationId)
    expect(chosen.statusCode).toBe(200)
    expect(chosen.json().data.organization.id).toBe(secondOrganizationId)
    expect(String(chosen.headers['set-cookie'])).toMatch(/^cartage_refresh=/)

    // A member (not owner) of the second organisation can use its business but with Member rights.
    const me = await coreAs(ctx, {
      accessToken: chosen.json().data.accessToken,
      businessId: second.businessId,
    })({ url: '/api/me' })
    expect(me.json().data).toMatchObject({
      role: 'Member',
      isOwner: false,
      organization: { id: secondOrganizationId },
    })

    const stranger = (await sharedOrganisation(ctx)).org
    expect((await select(await organizationIdOf(ctx, stranger.businessId))).statusCode).toBe(403)
    // Only a selection token is accepted here: an access token is not one.
    expect((await select(secondOrganizationId, chosen.json().data.accessToken)).statusCode).toBe(401)
  })

  it('takes a selection token once: a second use, even in parallel, is refused', async () => {
    const first = await registerOrganization(ctx)
    const secondOrganizationId = await organizationIdOf(ctx, account.businessId)
    await addMembership(ctx, secondOrganizationId, first.userId)
    const select = async (token: string) =>
      ctx.global.inject({
        method: 'POST',
        url: '/api/auth/select-organization',
        headers: { authorization: `Bearer ${token}` },
        payload: { organizationId: secondOrganizationId },
      })
    const token = (await login(first.email, first.password)).json().data.selectionToken as string
    expect((await select(token)).statusCode).toBe(200)
    const again = await select(token)
    expect(again.statusCode).toBe(401)
    expect(again.json().code).toBe('token_used')

    const fresh = (await login(first.email, first.password)).json().data.selectionToken as string
    const parallel = await Promise.all([select(fresh), select(fresh), select(fresh)])
    expect(parallel.map((r) => r.statusCode).sort()).toEqual([200, 401, 401])
  })
})

describe('refresh tokens', () => {
  it('rotates: each refresh token works once, and the new one works', async () => {
    const { signedIn } = await freshSession()
    const first = await refreshWith(signedIn.refreshCookie)
    expect(first.statusCode).toBe(200)
    const next = `cartage_refresh=${first.cookies.find((c) => c.name === 'cartage_refresh')?.value}`
    expect(next).not.toBe(signedIn.refreshCookie)
    expect((await refreshWith(next)).statusCode).toBe(200)
  })

  it('revokes the whole family when a used token is replayed', async () => {
    const { signedIn, org } = await freshSession()
    const rotated = await refreshWith(signedIn.refreshCookie)
    const latest = `cartage_refresh=${rotated.cookies.find((c) => c.name === 'cartage_refresh')?.value}`
    const replay = await refreshWith(signedIn.refreshCookie)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().code).toBe('invalid_refresh_token')
    // The thief's replay also ends the legitimate holder's newer token and access.
    expect((await refreshWith(latest)).statusCode).toBe(401)
    await sleep(PAST_STATE_TTL)
    const me = await coreAs(ctx, {
      accessToken: rotated.json().data.accessToken,
      businessId: org.businessId,
    })({ url: '/api/me' })
    expect(me.statusCode).toBe(401)
  })

  it('lets exactly one of many parallel refreshes with one cookie succeed', async () => {
    const { signedIn } = await freshSession()
    const results = await Promise.all(Array.from({ length: 8 }, () => refreshWith(signedIn.refreshCookie)))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
  })

  it('rejects a missing or unknown cookie', async () => {
    expect((await ctx.global.inject({ method: 'POST', url: '/api/auth/new-token' })).statusCode).toBe(401)
    expect((await refreshWith('cartage_refresh=crt_nonsense')).statusCode).toBe(401)
  })
})

describe('logout', () => {
  it('ends the session: refresh fails and the Core API refuses its access token within a second, on every process', async () => {
    const { signedIn, credential, core } = await freshSession()
    const otherCore = await secondCoreApp(ctx)
    const otherAs = (url: string) =>
      otherCore.inject({
        url,
        headers: {
          authorization: `Bearer ${credential.accessToken}`,
          'x-business-id': credential.businessId,
        },
      })
    try {
      expect((await core({ url: '/api/me' })).statusCode).toBe(200)
      expect((await otherAs('/api/me')).statusCode).toBe(200)
      const out = await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${signedIn.accessToken}` },
      })
      expect(out.json()).toEqual({ data: true, statusCode: 200, messages: [] })
      expect(String(out.headers['set-cookie'])).toMatch(/cartage_refresh=;/)
      expect((await refreshWith(signedIn.refreshCookie)).statusCode).toBe(401)
      await sleep(PAST_STATE_TTL)
      expect((await core({ url: '/api/me' })).statusCode).toBe(401)
      expect((await otherAs('/api/me')).statusCode).toBe(401)
    } finally {
      await otherCore.close()
    }
  })

  it('needs a credential', async () => {
    expect((await ctx.global.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(401)
  })

  it('is refused to an API key, which has no session: 403 api_key_not_allowed, and the key works on', async () => {
    const { org, signedIn } = await freshSession()
    const key = await createApiKey(ctx, signedIn.accessToken, org.businessId, { scopes: '{"Customers": 1}' })
    const out = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'x-dispatch-api-key': key, cookie: signedIn.refreshCookie },
    })
    expect(out.statusCode).toBe(403)
    expect(out.json()).toMatchObject({
      code: 'api_key_not_allowed',
      detail: expect.stringContaining('An API key has no session to end'),
    })
    // Nothing ended: the key, and the owner's session whose cookie came along, both still work.
    expect((await coreAs(ctx, { apiKey: key })({ url: '/api/me' })).statusCode).toBe(200)
    expect((await refreshWith(signedIn.refreshCookie)).statusCode).toBe(200)
  })
})

describe('access tokens', () => {
  async function signWith(
    claims: Record<string, unknown>,
    options: { typ?: string; audience?: string; expiresAt?: number },
  ) {
    // The server's own key, from its key file (the database holds public keys only).
    const key = JSON.parse(readFileSync(signingKeyFile(ctx.dataDir), 'utf8')) as {
      kid: string
      privateKey: string
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: options.typ ?? 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(options.audience ?? ACCESS_AUDIENCE)
      .setSubject(String(claims.sub))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + 600)
      .sign(await importPKCS8(key.privateKey, 'EdDSA'))
  }

  it('answers an expired token with 403 on the Core API and 401 on the Global API', async () => {
    const { org, signedIn } = await freshSession()
    const [, payload] = signedIn.accessToken.split('.')
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())
    const expired = await signWith(claims, { expiresAt: Math.floor(Date.now() / 1000) - 60 })
    const core = await coreAs(ctx, { accessToken: expired, businessId: org.businessId })({ url: '/api/me' })
    expect(core.statusCode).toBe(403)
    expect(core.json().code).toBe('token_expired')
    const global = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${expired}` },
    })
    expect(global.statusCode).toBe(401)
  })

  it('refuses alg none, other token kinds, tampering and a foreign business', async () => {
    const { org, signedIn } = await freshSession()
    const [header, payload, signature] = signedIn.accessToken.split('.')
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, org: randomUUID() })).toString('base64url')}.${signature}`
    const selection = await signWith(claims, {
      typ: 'selection+jwt',
      audience: 'cartage-global:select-organization',
    })
    const wrongAudience = await signWith(claims, { audience: 'somebody-else' })
    const refreshToken = signedIn.refreshCookie.split('=')[1] ?? ''
    for (const token of [none, tampered, selection, wrongAudience, refreshToken, 'garbage']) {
      const response = await coreAs(ctx, { accessToken: token, businessId: org.businessId })({
        url: '/api/me',
      })
      expect(response.statusCode, token).toBe(401)
    }
    const other = (await sharedOrganisation(ctx)).org
    const foreign = await coreAs(ctx, { accessToken: signedIn.accessToken, businessId: other.businessId })({
      url: '/api/me',
    })
    expect(foreign.statusCode).toBe(200) // /api/me needs no business...
    const me = await signIn(ctx, org)
    expect(me.accessToken).not.toBe(signedIn.accessToken)
  })

  it('publishes the verification key as JWKS', async () => {
    const jwks = (await ctx.global.inject({ url: '/.well-known/jwks.json' })).json()
    expect(jwks.keys[0]).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
      use: 'sig',
      kid: expect.any(String),
    })
    expect(jwks.keys[0].d).toBeUndefined()
  })
})

describe('GET /api/me', () => {
  it('describes the caller without X-Business-Id', async () => {
    const { org, signedIn } = await freshSession()
    const response = await ctx.core.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${signedIn.accessToken}` },
    })
    expect(response.statusCode).toBe(200)
    const data = response.json().data
    expect(data).toMatchObject({
      user: { id: org.userId, email: org.email, firstName: 'Ada', emailVerified: false },
      credential: 'User',
      role: 'Owner',
      isOwner: true,
      businesses: [{ id: org.businessId, displayName: 'Test Org', parentBusinessId: null }],
    })
    expect(data.permissions.Billing).toBe(7)
    expect(Object.keys(data.permissions)).toHaveLength(16)
  })

  it('needs a credential', async () => {
    const response = await ctx.core.inject({ url: '/api/me' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ code: 'missing_credential', reasons: [] })
  })
})
