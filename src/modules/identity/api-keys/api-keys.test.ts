import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { addBusiness, addMember, sharedOrganisation, sleep } from '../../../../test/fixtures.js'
import {
  type GlobalCaller,
  globalAs,
  type OwnerSession,
  ownerSession,
  secondCoreApp,
  useTestContext,
} from '../../../../test/harness.js'

const ctx = useTestContext()

const coreWithKey = (apiKey: string) =>
  ctx.core.inject({ url: '/api/me', headers: { 'x-dispatch-api-key': apiKey } })

const createKey = (caller: GlobalCaller, payload: Record<string, unknown>) =>
  globalAs(ctx, caller)({ method: 'POST', url: '/api/auth/tokens', payload })
const listKeys = (caller: GlobalCaller, query = '') =>
  globalAs(ctx, caller)({ url: `/api/auth/tokens${query}` })
const revokeKey = (caller: GlobalCaller, id: string) =>
  globalAs(ctx, caller)({ method: 'DELETE', url: `/api/auth/tokens/${id}` })

const asOwner = ({ org, signedIn }: OwnerSession) => ({
  org,
  caller: { bearer: signedIn.accessToken } as GlobalCaller,
})
/**
 * An organisation of its own: the key list is the whole organisation's, so a test that reads it
 * back (counts, order, what is left) must be alone in it.
 */
const owner = async () => asOwner(await ownerSession(ctx))
/** The file's organisation (`name`: another), for a test that never reads the key list as a whole. */
const sharedOwner = async (name?: string) => asOwner(await sharedOrganisation(ctx, name))

describe('creating and listing API keys', () => {
  it('shows the value once, lists newest first without it, and stores only a digest', async () => {
    const { org, caller } = await owner()
    const created = await createKey(caller, {
      label: 'Warehouse sync',
      businessId: org.businessId,
      scopes: '{"orders": 7}',
    })
    expect(created.statusCode).toBe(200)
    const key = created.json().data
    expect(key).toMatchObject({
      id: expect.any(String),
      token: expect.stringMatching(/^cak_[\w-]{43}$/),
      title: 'Warehouse sync',
      scopes: '{"orders": 7}',
      expiryDate: null,
      lastUsedAt: null,
      businessId: org.businessId,
    })
    expect(key.keyPrefix).toBe(key.token.slice(0, 12))
    expect(Math.abs(new Date(key.dateCreated).getTime() - Date.now())).toBeLessThan(60_000)
    expect(created.json().statusCode).toBe(200)

    const second = (await createKey(caller, { businessId: org.businessId })).json().data
    expect(second).toMatchObject({ title: null, scopes: null })

    const list = await listKeys(caller)
    expect(list.statusCode).toBe(200)
    expect(list.json()).toMatchObject({
      count: 2,
      totalCount: 2,
      page: 1,
      pageSize: 20,
      statusCode: 200,
      messages: [],
    })
    expect(list.json().data.map((k: { id: string }) => k.id)).toEqual([second.id, key.id])
    expect(list.json().data.every((k: { token: unknown }) => k.token === null)).toBe(true)
    expect(list.body).not.toContain(key.token)

    const row = await ctx.database.db
      .selectFrom('global.api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow()
    expect(row.key_hash.equals(ctx.services.hasher.digest(key.token))).toBe(true)
    const stored = Object.values(row).map((v) =>
      Buffer.isBuffer(v) ? v.toString('latin1') + v.toString('hex') : String(v),
    )
    expect(stored.join('|')).not.toContain(key.token.slice(4))
    expect(row.created_by_user_id).toBe(org.userId)
  })

  it('pages, and lists only the caller organisation’s keys', async () => {
    const { org, caller } = await owner()
    const other = await sharedOwner('another')
    await createKey(other.caller, { businessId: other.org.businessId })
    for (const label of ['a', 'b', 'c']) await createKey(caller, { label, businessId: org.businessId })
    const page = (await listKeys(caller, '?Page=2&PageSize=2')).json()
    expect(page).toMatchObject({ count: 1, totalCount: 3, page: 2, finalPage: 2, hasMore: false })
    expect(page.data[0].title).toBe('a')
    const found = (await listKeys(caller, "?$filter=title eq 'b'")).json()
    expect(found.data.map((k: { title: string }) => k.title)).toEqual(['b'])
    const bad = await listKeys(caller, '?PageSize=101')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].field).toBe('PageSize')
  })

  it('works on the Core API for its business, and records lastUsedAt', async () => {
    const { org, caller } = await owner()
    const key = (await createKey(caller, { businessId: org.businessId })).json().data
    const me = await coreWithKey(key.token)
    expect(me.statusCode).toBe(200)
    expect(me.json().data).toMatchObject({
      credential: 'ApiKey',
      currentBusinessId: org.businessId,
      isOwner: true,
    })
    expect(me.json().data.permissions.Billing).toBe(7)
    let lastUsedAt: string | null = null
    for (let i = 0; i < 20 && !lastUsedAt; i++) {
      lastUsedAt = (await listKeys(caller)).json().data[0].lastUsedAt
      if (!lastUsedAt) await sleep(50)
    }
    expect(Math.abs(new Date(lastUsedAt ?? 0).getTime() - Date.now())).toBeLessThan(60_000)
  })

  it('gives a key with ttlMinutes an expiryDate, and refuses it once expired', async () => {
    const { org, caller } = await owner()
    const key = (await createKey(caller, { businessId: org.businessId, ttlMinutes: 90 })).json().data
    const expiresIn = new Date(key.expiryDate).getTime() - Date.now()
    expect(expiresIn).toBeGreaterThan(89 * 60_000)
    expect(expiresIn).toBeLessThanOrEqual(90 * 60_000)
    expect((await coreWithKey(key.token)).statusCode).toBe(200)
    await ctx.database.db
      .updateTable('global.api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', key.id)
      .execute()
    const refused = await coreWithKey(key.token)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().code).toBe('invalid_credential')
    // An expired key is still listed (revoked ones are not), so the owner sees it lapse.
    expect((await listKeys(caller)).json().data[0].id).toBe(key.id)
  })

  it('accepts the largest ttlMinutes and a null one', async () => {
    const { org, caller } = await sharedOwner()
    const longest = await createKey(caller, {
      businessId: org.businessId,
      ttlMinutes: 2147483647,
      label: null,
      scopes: null,
    })
    expect(longest.statusCode).toBe(200)
    expect(new Date(longest.json().data.expiryDate).getUTCFullYear()).toBeGreaterThan(6000)
    const none = await createKey(caller, { businessId: org.businessId, ttlMinutes: null })
    expect(none.statusCode).toBe(200)
    expect(none.json().data.expiryDate).toBeNull()
  })

  it('answers invalid input with a 400 naming each field', async () => {
    const { org, caller } = await owner()
    const stranger = (await sharedOrganisation(ctx, 'another')).org
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'businessId'],
      [{ businessId: 'not-a-uuid' }, 'businessId'],
      [{ businessId: stranger.businessId }, 'businessId'],
      [{ businessId: randomUUID() }, 'businessId'],
      [{ businessId: org.businessId, label: 'x'.repeat(101) }, 'label'],
      [{ businessId: org.businessId, ttlMinutes: 0 }, 'ttlMinutes'],
      [{ businessId: org.businessId, ttlMinutes: 2147483648 }, 'ttlMinutes'],
      [{ businessId: org.businessId, ttlMinutes: 1.5 }, 'ttlMinutes'],
      [{ businessId: org.businessId, scopes: 'orders:7' }, 'scopes'],
      [{ businessId: org.businessId, scopes: '[1]' }, 'scopes'],
      [{ businessId: org.businessId, scopes: '{"Teleporters": 1}' }, 'scopes.Teleporters'],
      [{ businessId: org.businessId, scopes: '{"Orders": 8}' }, 'scopes.Orders'],
      [{ businessId: org.businessId, scopes: '{"Orders": "7"}' }, 'scopes.Orders'],
    ]
    for (const [payload, field] of cases) {
      const response = await createKey(caller, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/)
      expect(
        response.json().errors.map((e: { field: string }) => e.field),
        JSON.stringify(payload),
      ).toContain(field)
    }
    expect((await listKeys(caller)).json().totalCount).toBe(0)
  })
})

describe('who may create and revoke keys', () => {
  it('lets a member list keys but not create or revoke them', async () => {
    const { org, caller } = await owner()
    const key = (await createKey(caller, { businessId: org.businessId })).json().data
    const member: GlobalCaller = { bearer: (await addMember(ctx, org.businessId)).signedIn.accessToken }
    expect((await listKeys(member)).json().data.map((k: { id: string }) => k.id)).toEqual([key.id])
    const create = await createKey(member, { businessId: org.businessId })
    expect(create.statusCode).toBe(403)
    expect(create.json().code).toBe('owner_required')
    const revoke = await revokeKey(member, key.id)
    expect(revoke.statusCode).toBe(403)
    expect(revoke.json().code).toBe('owner_required')
    expect((await coreWithKey(key.token)).statusCode).toBe(200)
  })

  it('needs a credential', async () => {
    expect((await ctx.global.inject({ url: '/api/auth/tokens' })).statusCode).toBe(401)
    expect(
      (await ctx.global.inject({ method: 'POST', url: '/api/auth/tokens', payload: {} })).statusCode,
    ).toBe(401)
    expect(
      (await ctx.global.inject({ method: 'DELETE', url: `/api/auth/tokens/${randomUUID()}` })).statusCode,
    ).toBe(401)
    expect((await listKeys({ apiKey: 'cak_not-a-real-key' })).statusCode).toBe(401)
  })

  it('refuses every API key with 403 api_key_not_allowed, whatever its scopes; an owner signed in still creates', async () => {
    const { org, caller } = await owner()
    const unscoped = (await createKey(caller, { businessId: org.businessId })).json().data
    const keyAdmin = (
      await createKey(caller, { businessId: org.businessId, scopes: '{"TeamAndRoles": 7, "Customers": 1}' })
    ).json().data
    for (const parent of [unscoped, keyAdmin]) {
      for (const payload of [
        { businessId: org.businessId },
        { businessId: org.businessId, scopes: '{"Customers": 1}' },
      ]) {
        const child = await createKey({ apiKey: parent.token }, payload)
        expect(child.statusCode, JSON.stringify(payload)).toBe(403)
        expect(child.json()).toMatchObject({
          status: 403,
          code: 'api_key_not_allowed',
          detail: expect.stringContaining('An API key cannot create API keys'),
        })
      }
    }
    // Nothing was made: the organisation still has the two keys its owner created.
    const ids = (await listKeys(caller)).json().data.map((k: { id: string }) => k.id)
    expect(ids.sort()).toEqual([unscoped.id, keyAdmin.id].sort())
    // A person's behaviour is unchanged: the owner creates keys for any business of the organisation.
    const branch = await addBusiness(ctx, org.businessId)
    expect((await createKey(caller, { businessId: branch })).statusCode).toBe(200)
  })

  it('lets a handed-off session create keys only for its own business', async () => {
    const { org, caller } = await sharedOwner()
    const branch = await addBusiness(ctx, org.businessId)
    const minted = await globalAs(
      ctx,
      caller,
    )({
      method: 'POST',
      url: '/api/auth/ott',
      payload: { targetApp: 'board', businessId: org.businessId },
    })
    const session = (
      await ctx.global.inject({
        method: 'POST',
        url: '/api/auth/ott/redeem',
        payload: { token: minted.json().data.token },
      })
    ).json().data
    const handedOff: GlobalCaller = { bearer: session.accessToken }
    expect((await createKey(handedOff, { businessId: org.businessId })).statusCode).toBe(200)
    const elsewhere = await createKey(handedOff, { businessId: branch })
    expect(elsewhere.statusCode).toBe(403)
    expect(elsewhere.json().code).toBe('scope_escalation')
  })
})

describe('keys with narrow scopes', () => {
  it('cannot revoke keys unless their scopes grant TeamAndRoles Delete', async () => {
    const { org, caller } = await sharedOwner()
    const mint = async (scopes?: string) =>
      (await createKey(caller, { businessId: org.businessId, ...(scopes ? { scopes } : {}) })).json().data
    const other = await mint()
    const plugin = await mint('{"Orders": 3}')
    const revoked = await revokeKey({ apiKey: plugin.token }, other.id)
    expect(revoked.statusCode).toBe(403)
    expect(revoked.json().code).toBe('key_scope_insufficient')
    // The other integration keeps working, and the narrow key may still list keys.
    expect((await coreWithKey(other.token)).statusCode).toBe(200)
    expect((await listKeys({ apiKey: plugin.token })).statusCode).toBe(200)

    const modifier = await mint('{"Orders": 3, "TeamAndRoles": 2}')
    expect((await revokeKey({ apiKey: modifier.token }, other.id)).json().code).toBe('key_scope_insufficient')
    const revoker = await mint('{"TeamAndRoles": 4}')
    expect((await revokeKey({ apiKey: revoker.token }, other.id)).statusCode).toBe(200)
    expect((await coreWithKey(other.token)).statusCode).toBe(401)
    // An unrestricted key is limited by the owner rule alone.
    const unrestricted = await mint()
    expect((await revokeKey({ apiKey: unrestricted.token }, plugin.id)).statusCode).toBe(200)
  })
})

describe('revoking keys', () => {
  it('stops the key on the very next request, on every process, and hides it from the list', async () => {
    const { org, caller } = await owner()
    const key = (await createKey(caller, { businessId: org.businessId })).json().data
    const keep = (await createKey(caller, { businessId: org.businessId })).json().data
    const otherCore = await secondCoreApp(ctx)
    const otherMe = () => otherCore.inject({ url: '/api/me', headers: { 'x-dispatch-api-key': key.token } })
    try {
      expect((await coreWithKey(key.token)).statusCode).toBe(200)
      expect((await otherMe()).statusCode).toBe(200)
      const revoked = await revokeKey(caller, key.id)
      expect(revoked.json()).toEqual({ data: true, statusCode: 200, messages: [] })
      expect((await coreWithKey(key.token)).statusCode).toBe(401)
      expect((await otherMe()).statusCode).toBe(401)
    } finally {
      await otherCore.close()
    }
    expect((await revokeKey(caller, key.id)).json().data).toBe(true)
    expect((await listKeys(caller)).json().data.map((k: { id: string }) => k.id)).toEqual([keep.id])
    expect((await coreWithKey(keep.token)).statusCode).toBe(200)
  })

  it('lets a key revoke itself', async () => {
    const { org, caller } = await sharedOwner()
    const key = (await createKey(caller, { businessId: org.businessId })).json().data
    expect((await revokeKey({ apiKey: key.token }, key.id)).statusCode).toBe(200)
    expect((await listKeys({ apiKey: key.token })).statusCode).toBe(401)
  })

  it('answers 404 for an unknown id or another organisation’s key, and 400 for a malformed id', async () => {
    const { caller } = await sharedOwner()
    const other = await sharedOwner('another')
    const foreign = (await createKey(other.caller, { businessId: other.org.businessId })).json().data
    const response = await revokeKey(caller, foreign.id)
    expect(response.statusCode).toBe(404)
    expect(response.json().code).toBe('api_key_not_found')
    expect((await coreWithKey(foreign.token)).statusCode).toBe(200)
    expect((await revokeKey(caller, randomUUID())).statusCode).toBe(404)
    const malformed = await revokeKey(caller, 'nope')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().errors[0].field).toBe('id')
  })
})
