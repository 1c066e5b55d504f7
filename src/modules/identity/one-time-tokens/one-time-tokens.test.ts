import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { addBusiness, businessSession, rolledBack, sharedOrganisation } from '../../../../test/fixtures.js'
import {
  type GlobalCaller,
  globalAs,
  type OwnerSession,
  ownerSession,
  startTestContext,
  useTestContext,
} from '../../../../test/harness.js'
import * as endHandedOffSessions from './migrations/20261202090000-end-handed-off-sessions.js'

const ctx = useTestContext()

const mint = (caller: GlobalCaller, payload: Record<string, unknown>) =>
  globalAs(ctx, caller)({ method: 'POST', url: '/api/auth/ott', payload })
const createKey = (caller: GlobalCaller, payload: Record<string, unknown>) =>
  globalAs(ctx, caller)({ method: 'POST', url: '/api/auth/tokens', payload })
const redeem = (token: string, app = ctx.global, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/ott/redeem',
    payload: { token },
    ...(remoteAddress ? { remoteAddress } : {}),
  })
/** GET /api/me on the Core API with a bearer token and no X-Business-Id. */
const meWith = (accessToken: string) =>
  ctx.core.inject({ url: '/api/me', headers: { authorization: `Bearer ${accessToken}` } })

const asOwner = ({ org, signedIn }: OwnerSession) => ({
  org,
  caller: { bearer: signedIn.accessToken } as GlobalCaller,
})
/**
 * The owner of the file's organisation acting in a new business of it: tokens and hand-off
 * sessions are the user's and the business's, so each test reads back only its own.
 */
const owner = async () => asOwner(await businessSession(ctx, await sharedOrganisation(ctx)))
/** An owner of their own: for a test that reads back everything its user has (every token, every session). */
const ownOwner = async () => asOwner(await ownerSession(ctx))

async function mintToken(caller: GlobalCaller, businessId: string): Promise<string> {
  const response = await mint(caller, { targetApp: 'dispatch-board', businessId })
  if (response.statusCode !== 200) throw new Error(`mint failed: ${response.statusCode} ${response.body}`)
  return response.json().data.token
}

describe('minting and redeeming one-time tokens', () => {
  it('hands a session bound to the business to another app, once', async () => {
    const { org, caller } = await owner()
    const minted = await mint(caller, { targetApp: 'dispatch-board', businessId: org.businessId })
    expect(minted.statusCode).toBe(200)
    const { token, expiresAt } = minted.json().data
    expect(token).toMatch(/^cot_[\w-]{43}$/)
    const life = new Date(expiresAt).getTime() - Date.now()
    expect(life).toBeGreaterThan(55_000)
    expect(life).toBeLessThanOrEqual(60_000)
    const row = await ctx.database.db
      .selectFrom('global.one_time_tokens')
      .selectAll()
      .where('token_hash', '=', ctx.services.hasher.digest(token))
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      user_id: org.userId,
      business_id: org.businessId,
      target_app: 'dispatch-board',
      scopes: null,
      used_at: null,
    })

    const redeemed = await redeem(token)
    expect(redeemed.statusCode).toBe(200)
    const session = redeemed.json().data
    expect(session).toMatchObject({ businessId: org.businessId, organization: { name: 'Test Org' } })
    expect(String(redeemed.headers['set-cookie'])).toMatch(/^cartage_refresh=crt_.*HttpOnly/)

    const me = await meWith(session.accessToken)
    expect(me.statusCode).toBe(200)
    expect(me.json().data).toMatchObject({
      credential: 'User',
      currentBusinessId: org.businessId,
      user: { id: org.userId },
    })
    expect(me.json().data.permissions.Billing).toBe(7)

    const again = await redeem(token)
    expect(again.statusCode).toBe(401)
    expect(again.json()).toMatchObject({ status: 401, code: 'invalid_one_time_token' })
  })

  it('lets exactly one of 50 parallel redemptions of one token succeed', async () => {
    const { org, caller } = await owner()
    const token = await mintToken(caller, org.businessId)
    const results = await Promise.all(Array.from({ length: 50 }, () => redeem(token)))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(49)
    const sessions = await ctx.database.db
      .selectFrom('global.sessions')
      .select('id')
      .where('user_id', '=', org.userId)
      .where('business_id', '=', org.businessId)
      .execute()
    expect(sessions).toHaveLength(1)
  })

  it('refuses an expired or unknown token', async () => {
    const { org, caller } = await owner()
    const token = await mintToken(caller, org.businessId)
    await ctx.database.db
      .updateTable('global.one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', ctx.services.hasher.digest(token))
      .execute()
    expect((await redeem(token)).json().code).toBe('invalid_one_time_token')
    expect((await redeem('cot_made-up')).statusCode).toBe(401)
    const empty = await ctx.global.inject({ method: 'POST', url: '/api/auth/ott/redeem', payload: {} })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().errors[0].field).toBe('token')
  })

  it('rate limits redemption per client IP', async () => {
    const tight = await startTestContext({ RATE_LIMIT_PER_IP: '3' })
    // A unique address: the PostgreSQL test database shares its counters across test files.
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
    try {
      const codes = []
      for (let i = 0; i < 4; i++) codes.push((await redeem('cot_guess', tight.global, ip)).statusCode)
      expect(codes).toEqual([401, 401, 401, 429])
    } finally {
      await tight.close()
    }
  })
})

describe('which business a token may name', () => {
  it('refuses another organisation’s business or an unknown one with 403, and bad input with 400', async () => {
    const { caller } = await owner()
    const stranger = (await sharedOrganisation(ctx, 'another')).org
    for (const businessId of [stranger.businessId, randomUUID()]) {
      const response = await mint(caller, { targetApp: 'dispatch-board', businessId })
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('business_not_accessible')
    }
    for (const [payload, field] of [
      [{ businessId: stranger.businessId }, 'targetApp'],
      [{ targetApp: '   ', businessId: stranger.businessId }, 'targetApp'],
      [{ targetApp: 'x'.repeat(101), businessId: stranger.businessId }, 'targetApp'],
      [{ targetApp: 'app', businessId: 'nope' }, 'businessId'],
    ] as const) {
      const response = await mint(caller, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().errors.map((e: { field: string }) => e.field)).toContain(field)
    }
    expect(
      (
        await ctx.global.inject({
          method: 'POST',
          url: '/api/auth/ott',
          payload: { targetApp: 'a', businessId: stranger.businessId },
        })
      ).statusCode,
    ).toBe(401)
  })

  it('lets a person choose any business of the organisation, a handed-off session only its own', async () => {
    const { org, caller } = await owner()
    const branch = await addBusiness(ctx, org.businessId)
    const session = (await redeem(await mintToken(caller, branch))).json().data
    expect(session.businessId).toBe(branch)
    expect((await meWith(session.accessToken)).json().data.currentBusinessId).toBe(branch)
    // A handed-off session is bound: it cannot hop to another business.
    const hop = await mint({ bearer: session.accessToken }, { targetApp: 'a', businessId: org.businessId })
    expect(hop.statusCode).toBe(403)
    expect(hop.json().code).toBe('business_not_accessible')
    expect(
      (await mint({ bearer: session.accessToken }, { targetApp: 'a', businessId: branch })).statusCode,
    ).toBe(200)
  })
})

describe('API keys', () => {
  it('cannot mint a one-time token, whatever their scopes: a key has no person to hand on', async () => {
    const { org, caller } = await ownOwner()
    const keys = [
      (await createKey(caller, { businessId: org.businessId, scopes: '{"Customers": 1}' })).json().data,
      (await createKey(caller, { businessId: org.businessId })).json().data,
    ]
    for (const key of keys) {
      const response = await mint({ apiKey: key.token }, { targetApp: 'a', businessId: org.businessId })
      expect(response.statusCode).toBe(403)
      expect(response.json()).toMatchObject({
        status: 403,
        code: 'api_key_not_allowed',
        detail: expect.stringContaining('An API key cannot mint one-time tokens'),
      })
    }
    const minted = await ctx.database.db
      .selectFrom('global.one_time_tokens')
      .select('token_hash')
      .where('user_id', '=', org.userId)
      .execute()
    expect(minted).toHaveLength(0)
    // A person's hand-off is unchanged.
    expect((await redeem(await mintToken(caller, org.businessId))).statusCode).toBe(200)
  })
})

describe('upgrading', () => {
  it('ends the hand-offs left open, since none records whether a key made it; sign-ins stay', async () => {
    const { org, caller } = await ownOwner()
    const handedOff = (await redeem(await mintToken(caller, org.businessId))).json().data
    const unredeemed = await mintToken(caller, org.businessId)
    // Rolled back: on PostgreSQL other test files share the database and its hand-offs.
    const after = await rolledBack(ctx, async (trx) => {
      await sql.raw(`SET LOCAL search_path TO global; ${endHandedOffSessions.sql}`).execute(trx)
      const sessions = await trx
        .selectFrom('global.sessions')
        .select(['business_id', 'revoked_at', 'revoked_reason'])
        .where('user_id', '=', org.userId)
        .execute()
      const token = await trx
        .selectFrom('global.one_time_tokens')
        .select('used_at')
        .where('token_hash', '=', ctx.services.hasher.digest(unredeemed))
        .executeTakeFirstOrThrow()
      return { sessions, token }
    })
    const bound = after.sessions.find((s) => s.business_id !== null)
    expect(bound?.revoked_reason).toBe('handoff_withdrawn')
    expect(bound?.revoked_at).not.toBeNull()
    expect(after.sessions.filter((s) => s.business_id === null && s.revoked_at === null)).toHaveLength(1)
    expect(after.token.used_at).not.toBeNull()
    expect(handedOff.businessId).toBe(org.businessId)
  })
})
