import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createApiKey, fieldsOf, freshBusiness } from '../../../test/fixtures.js'
import {
  type Core,
  coreAs,
  globalAs,
  ownerSession,
  useOwnerSession,
  useTestContext,
} from '../../../test/harness.js'
import { testDatabaseUrl } from '../../../test/test-database.js'
import { CUSTOMERS } from '../../modules/customers/customers/customers.fixtures.js'
import { purgeExpiredKeys } from './idempotency.repository.js'

const ctx = useTestContext()
// Keys are kept per organisation, under random names: the tests share one organisation, each in a
// fresh business of it (customers are counted per business), except those that age every key of
// their organisation, which keep their own.
const owner = useOwnerSession(ctx)

const createWithKey = (core: Core, key: string, payload: Record<string, unknown>) =>
  core({ method: 'POST', url: CUSTOMERS, headers: { 'idempotency-key': key }, payload })

/** How many customers of this name the business has. */
async function customersNamed(core: Core, name: string): Promise<number> {
  const response = await core({ url: `${CUSTOMERS}?$filter=${encodeURIComponent(`name eq '${name}'`)}` })
  expect(response.statusCode).toBe(200)
  return response.json().totalCount
}

/** Moves every stored key of the business's organisation back in time. */
async function ageKeys(businessId: string, minutes: number, options: { unanswered?: boolean } = {}) {
  await sql`UPDATE global.idempotency_keys
    SET created_at = created_at - make_interval(mins => ${minutes}),
        expires_at = expires_at - make_interval(mins => ${minutes})
        ${options.unanswered ? sql`, response_status = NULL, response_body = NULL` : sql``}
    WHERE organization_id = (SELECT organization_id FROM global.businesses WHERE id = ${businessId})`.execute(
    ctx.database.db,
  )
}

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer, marked as replayed, without doing the work again', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const key = randomUUID()
    const name = `Idem ${key}`
    const first = await createWithKey(core, key, { name })
    expect(first.statusCode).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const retry = await createWithKey(core, key, { name })
    expect(retry.statusCode).toBe(200)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.headers['content-type']).toBe(first.headers['content-type'])
    expect(retry.json()).toEqual(first.json())
    expect(await customersNamed(core, name)).toBe(1)
    // Without a key, or with another one, the work runs again.
    expect((await core({ method: 'POST', url: CUSTOMERS, payload: { name } })).statusCode).toBe(200)
    expect((await createWithKey(core, randomUUID(), { name })).statusCode).toBe(200)
    expect(await customersNamed(core, name)).toBe(3)
  })

  it('refuses the same key for a different body, path or caller with a 409 naming the header', async () => {
    const { core, businessId } = await freshBusiness(ctx, owner)
    const key = randomUUID()
    expect((await createWithKey(core, key, { name: 'First' })).statusCode).toBe(200)
    const otherBody = await createWithKey(core, key, { name: 'Second' })
    expect(otherBody.statusCode).toBe(409)
    expect(otherBody.json()).toMatchObject({ code: 'idempotency_key_reused' })
    expect(fieldsOf(otherBody)).toEqual(['Idempotency-Key'])
    const otherPath = await core({
      method: 'POST',
      url: '/api/v1/CustomerGroups',
      headers: { 'idempotency-key': key },
      payload: { name: 'First' },
    })
    expect(otherPath.statusCode).toBe(409)
    // The same organisation's API key is another caller: it never gets the owner's answer.
    const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, businessId)
    const otherCaller = await createWithKey(coreAs(ctx, { apiKey }), key, { name: 'First' })
    expect(otherCaller.statusCode).toBe(409)
    expect(otherCaller.json()).toMatchObject({ code: 'idempotency_key_reused' })
    expect(await customersNamed(core, 'Second')).toBe(0)
  })

  it('keeps keys per organisation: another organisation may use the same key', async () => {
    const a = await freshBusiness(ctx, owner)
    const b = await ownerSession(ctx)
    const key = randomUUID()
    const fromA = await createWithKey(a.core, key, { name: 'Shared key' })
    const fromB = await createWithKey(b.core, key, { name: 'Shared key' })
    expect([fromA.statusCode, fromB.statusCode]).toEqual([200, 200])
    expect(fromB.headers['idempotent-replayed']).toBeUndefined()
    expect(fromB.json().data.id).not.toBe(fromA.json().data.id)
    expect(await customersNamed(b.core, 'Shared key')).toBe(1)
  })

  it('refuses a malformed key with a 400 naming the header, before any work', async () => {
    const { core } = await freshBusiness(ctx, owner)
    for (const key of ['x'.repeat(256), 'tab\there']) {
      const response = await createWithKey(core, key, { name: 'Malformed key' })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)).toEqual(['Idempotency-Key'])
    }
    expect((await createWithKey(core, 'x'.repeat(255), { name: 'Malformed key' })).statusCode).toBe(200)
    expect(await customersNamed(core, 'Malformed key')).toBe(1)
  })

  it('keeps a 4xx answer of a request that ran, but not a request refused for its input', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const key = randomUUID()
    const invalid = await createWithKey(core, key, { name: '' })
    expect(invalid.statusCode).toBe(400)
    // Validation refused it before it ran: the key is still free, for the corrected request too.
    const fixed = await createWithKey(core, key, { name: 'Fixed' })
    expect(fixed.statusCode).toBe(200)
    const missing = `${CUSTOMERS}/${randomUUID()}/contacts`
    const key2 = randomUUID()
    const notFound = await core({
      method: 'POST',
      url: missing,
      headers: { 'idempotency-key': key2 },
      payload: { firstName: 'Jane' },
    })
    expect(notFound.statusCode).toBe(404)
    const again = await core({
      method: 'POST',
      url: missing,
      headers: { 'idempotency-key': key2 },
      payload: { firstName: 'Jane' },
    })
    expect(again.statusCode).toBe(404)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(notFound.json())
  })

  it('runs a request again once its key has expired (24 hours) or its claim went stale', async () => {
    const { core, org } = await ownerSession(ctx)
    const key = randomUUID()
    const name = `Expiring ${key}`
    expect((await createWithKey(core, key, { name })).statusCode).toBe(200)
    await ageKeys(org.businessId, 24 * 60 + 1)
    const afterExpiry = await createWithKey(core, key, { name })
    expect(afterExpiry.statusCode).toBe(200)
    expect(afterExpiry.headers['idempotent-replayed']).toBeUndefined()
    expect(await customersNamed(core, name)).toBe(2)
    // A claim without an answer for more than 5 minutes: its process died; the key is free again.
    await ageKeys(org.businessId, 6, { unanswered: true })
    const afterStale = await createWithKey(core, key, { name })
    expect(afterStale.headers['idempotent-replayed']).toBeUndefined()
    expect(await customersNamed(core, name)).toBe(3)
  })

  it('purges expired keys', async () => {
    const { core, org } = await ownerSession(ctx)
    expect((await createWithKey(core, randomUUID(), { name: 'Purged' })).statusCode).toBe(200)
    const kept = () =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM global.idempotency_keys
        WHERE organization_id = (SELECT organization_id FROM global.businesses WHERE id = ${org.businessId})`.execute(
        ctx.database.db,
      )
    expect((await kept()).rows[0]?.n).toBe(1)
    await ageKeys(org.businessId, 24 * 60 + 1)
    while ((await purgeExpiredKeys(ctx.database.db)) > 0);
    expect((await kept()).rows[0]?.n).toBe(0)
  })

  it('makes a retry wait for a first request still running, then answers 409 idempotency_key_in_use', async () => {
    const { core, org } = await ownerSession(ctx)
    const key = randomUUID()
    expect((await createWithKey(core, key, { name: 'Still running' })).statusCode).toBe(200)
    await ageKeys(org.businessId, 0, { unanswered: true })
    const started = Date.now()
    const retry = await createWithKey(core, key, { name: 'Still running' })
    expect(retry.statusCode).toBe(409)
    expect(retry.json()).toMatchObject({ code: 'idempotency_key_in_use' })
    expect(fieldsOf(retry)).toEqual(['Idempotency-Key'])
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000)
    expect(await customersNamed(core, 'Still running')).toBe(1)
  }, 30_000)

  it('makes Global API POSTs idempotent: one API key, its value replayed only to its creator', async () => {
    const global = globalAs(ctx, { bearer: owner.signedIn.accessToken })
    const key = randomUUID()
    const create = () =>
      global({
        method: 'POST',
        url: '/api/auth/tokens',
        headers: { 'idempotency-key': key },
        payload: { businessId: owner.org.businessId, label: 'Retried' },
      })
    const first = await create()
    expect(first.statusCode).toBe(200)
    const retry = await create()
    expect(retry.statusCode).toBe(200)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.json().data.token).toBe(first.json().data.token)
    const keys = await global({ url: '/api/auth/tokens' })
    expect(keys.json().data.filter((k: { title: string | null }) => k.title === 'Retried')).toHaveLength(1)
    // The stored answer holds no readable secret: it is encrypted with a key derived from the header.
    const { rows } = await sql<{ body: string }>`
      SELECT response_body AS body FROM global.idempotency_keys WHERE response_body IS NOT NULL`.execute(
      ctx.database.db,
    )
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((row) => row.body.includes(first.json().data.token))).toBe(false)
    const bodyProblem = await global({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { 'idempotency-key': key },
      payload: { businessId: owner.org.businessId, label: 'Other' },
    })
    expect(bodyProblem.statusCode).toBe(409)
    expect(bodyProblem.json()).toMatchObject({ code: 'idempotency_key_reused' })
    expect(fieldsOf(bodyProblem)).toEqual(['Idempotency-Key'])
  })

  it('ignores the header on public POSTs: a sign-in is never replayed', async () => {
    const { org } = owner
    const key = randomUUID()
    const signIn = () =>
      ctx.global.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'idempotency-key': key },
        payload: { email: org.email, password: org.password },
      })
    const first = await signIn()
    const second = await signIn()
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(second.json().data.session.accessToken).not.toBe(first.json().data.session.accessToken)
  })

  it.skipIf(!testDatabaseUrl())(
    'does the work once for 20 parallel requests with one key; all get the same answer (PostgreSQL)',
    async () => {
      const { core } = await freshBusiness(ctx, owner)
      const key = randomUUID()
      const name = `Parallel ${key}`
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => createWithKey(core, key, { name, email: 'buyer@example.com' })),
      )
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200))
      const bodies = new Set(responses.map((r) => r.body))
      expect(bodies.size).toBe(1)
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19)
      expect(await customersNamed(core, name)).toBe(1)
    },
  )
})
