import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import {
  addUser,
  fieldsOf,
  PAST_STATE_TTL,
  sharedOrganisation,
  sleep,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import {
  coreAs,
  ownerSession,
  PASSWORD,
  registerOrganization,
  uniqueEmail,
  useTestContext,
} from '../../../../test/harness.js'

const ctx = useTestContext()

const NEW_PASSWORD = 'a-brand-new-passphrase'

useSharedOrganisation(ctx)
/** A user of their own (address and password) in the file's shared organisation: a reset is about the account. */
async function account() {
  const { email } = await addUser(ctx, (await sharedOrganisation(ctx)).org.businessId)
  return { email, password: PASSWORD }
}

const forgot = (email: string, context = ctx) =>
  context.global.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })
const reset = (payload: object) =>
  ctx.global.inject({ method: 'POST', url: '/api/auth/reset-password', payload })
const login = (email: string, password: string) =>
  ctx.global.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })

/** Asks for a reset link and returns its token, read from the email (sent after the response). */
async function resetToken(email: string): Promise<string> {
  const before = ctx.mailer.sent.length
  expect((await forgot(email)).statusCode).toBe(200)
  await vi.waitFor(() => expect(ctx.mailer.sent.slice(before).some((m) => m.to === email)).toBe(true))
  const message = ctx.mailer.lastTo(email)
  expect(message?.subject).toBe('Reset your password')
  const link = /https?:\/\/\S+/.exec(message?.text ?? '')?.[0] ?? ''
  expect(link).toMatch(/^http:\/\/localhost:8080\/#\/reset-password\?token=crp_[\w-]+$/)
  return new URLSearchParams(new URL(link).hash.replace(/^#\/reset-password\?/, '')).get('token') ?? ''
}

describe('POST /api/auth/forgot-password', () => {
  it('answers a known and an unknown address identically and emails only the known one', async () => {
    const org = await account()
    const unknown = uniqueEmail('nobody')
    const before = ctx.mailer.sent.length
    const known = await forgot(org.email.toUpperCase())
    const missing = await forgot(unknown)
    expect(known.statusCode).toBe(200)
    expect(missing.statusCode).toBe(200)
    expect(known.body).toBe(missing.body)
    expect(known.json()).toEqual({ data: true, statusCode: 200, messages: [] })

    await vi.waitFor(() => expect(ctx.mailer.sent.slice(before).some((m) => m.to === org.email)).toBe(true))
    await sleep(200)
    const sent = ctx.mailer.sent.slice(before)
    expect(sent.filter((m) => m.to === org.email)).toHaveLength(1)
    expect(sent.some((m) => m.to.toLowerCase() === unknown)).toBe(false)
  })

  it('names an invalid email', async () => {
    const response = await forgot('not-an-email')
    expect(response.statusCode).toBe(400)
    expect(fieldsOf(response)).toEqual(['email'])
  })
})

describe('POST /api/auth/reset-password', () => {
  it('sets the new password, verifies the address and ends every session of the user', async () => {
    const { org, signedIn, credential } = await ownerSession(ctx)
    const core = coreAs(ctx, credential)
    expect((await core({ url: '/api/me' })).statusCode).toBe(200)
    const token = await resetToken(org.email)

    const response = await reset({ token, password: NEW_PASSWORD })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: true, statusCode: 200, messages: [] })

    expect((await login(org.email, org.password)).statusCode).toBe(401)
    const fresh = await login(org.email, NEW_PASSWORD)
    expect(fresh.statusCode).toBe(200)
    const refreshed = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/new-token',
      headers: { cookie: signedIn.refreshCookie },
    })
    expect(refreshed.statusCode).toBe(401)
    await sleep(PAST_STATE_TTL)
    expect((await core({ url: '/api/me' })).statusCode).toBe(401)
    // The session started after the reset is unaffected, and the address now counts as verified.
    const me = await coreAs(ctx, {
      accessToken: fresh.json().data.session.accessToken,
      businessId: org.businessId,
    })({
      url: '/api/me',
    })
    expect(me.statusCode).toBe(200)
    expect(me.json().data.user.emailVerified).toBe(true)
  })

  it('takes each token once, and an older link dies when a newer one is used', async () => {
    const org = await account()
    const older = await resetToken(org.email)
    const token = await resetToken(org.email)
    expect((await reset({ token, password: NEW_PASSWORD })).statusCode).toBe(200)
    const again = await reset({ token, password: 'yet-another-password' })
    expect(again.statusCode).toBe(400)
    expect(again.json()).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(fieldsOf(again)).toEqual(['token'])
    expect(fieldsOf(await reset({ token: older, password: 'yet-another-password' }))).toEqual(['token'])
    expect((await login(org.email, NEW_PASSWORD)).statusCode).toBe(200)
  })

  it('lets only one of two parallel resets with one token through', async () => {
    const org = await account()
    const token = await resetToken(org.email)
    const results = await Promise.all([
      reset({ token, password: 'first-new-password' }),
      reset({ token, password: 'second-new-password' }),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400])
  })

  it('refuses an expired token', async () => {
    const org = await account()
    const token = await resetToken(org.email)
    await ctx.database.db
      .updateTable('global.email_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('token_hash', '=', ctx.services.hasher.digest(token))
      .execute()
    const response = await reset({ token, password: NEW_PASSWORD })
    expect(response.statusCode).toBe(400)
    expect(fieldsOf(response)).toEqual(['token'])
    expect((await login(org.email, org.password)).statusCode).toBe(200)
  })

  it('applies the password policy without using up the token', async () => {
    const org = await account()
    const token = await resetToken(org.email)
    const short = await reset({ token, password: 'short' })
    expect(short.statusCode).toBe(400)
    expect(short.json().errors).toEqual([{ field: 'password', message: 'must be at least 8 characters' }])
    const email = await reset({ token, password: org.email.toUpperCase() })
    expect(email.json().errors).toEqual([{ field: 'password', message: 'must not be the email address' }])
    expect((await reset({ token, password: NEW_PASSWORD })).statusCode).toBe(200)
  })

  it('names missing or unknown fields', async () => {
    const empty = await reset({})
    expect(empty.statusCode).toBe(400)
    expect(fieldsOf(empty).sort()).toEqual(['password', 'token'])
    const unknown = await reset({ token: 'crp_unknown', password: NEW_PASSWORD })
    expect(unknown.statusCode).toBe(400)
    expect(fieldsOf(unknown)).toEqual(['token'])
  })
})

describe('rate limits', () => {
  const tight = useTestContext({ RATE_LIMIT_PER_ACCOUNT: '3' })

  it('answers 429 with Retry-After past the per-account limit of forgot-password, for known and unknown addresses alike', async () => {
    const org = await registerOrganization(tight)
    const unknown = uniqueEmail('nobody')
    for (let i = 0; i < 3; i++) {
      expect((await forgot(org.email, tight)).statusCode).toBe(200)
      expect((await forgot(unknown, tight)).statusCode).toBe(200)
    }
    const limited = await forgot(org.email.toUpperCase(), tight)
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toMatchObject({ status: 429, code: 'rate_limited' })
    const retryAfter = Number(limited.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(900)
    expect((await forgot(unknown, tight)).statusCode).toBe(429)
    // Another account is not affected.
    expect((await forgot(uniqueEmail('other'), tight)).statusCode).toBe(200)
  })
})
