import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  businessSession,
  createApiKey,
  fieldsOf,
  insertCustomer,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, coreAs, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

const save = (core: Core, customerId: string, payload: unknown) =>
  core({ method: 'POST', url: `/api/customer/${customerId}/configuration`, payload: payload as object })
const read = (core: Core, customerId: string) =>
  core({ url: `/api/customer/configurations?customerId=${customerId}` })

describe('customer configurations', () => {
  it('sets, overwrites, lists and removes a customer’s keys', async () => {
    const { org, core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customerId = await insertCustomer(ctx, org.businessId)
    const empty = await read(core, customerId)
    expect(empty.statusCode).toBe(200)
    expect(empty.json()).toEqual([])

    const saved = await save(core, customerId, { key: 'portal.language', value: 'af' })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toEqual({ data: true, statusCode: 'OK', messages: [] })
    await save(core, customerId, { key: 'currency.default', value: 'eur' })
    const first = (await read(core, customerId)).json()
    expect(first).toEqual([
      {
        customerId,
        key: 'currency.default',
        value: 'EUR',
        dateCreated: expect.any(String),
        dateModified: expect.any(String),
      },
      {
        customerId,
        key: 'portal.language',
        value: 'af',
        dateCreated: expect.any(String),
        dateModified: expect.any(String),
      },
    ])

    await save(core, customerId, { key: 'portal.language', value: 'zu' })
    const second = (await read(core, customerId)).json()
    const language = second.find((c: { key: string }) => c.key === 'portal.language')
    expect(language.value).toBe('zu')
    expect(language.dateCreated).toBe(first[1].dateCreated)
    expect(new Date(language.dateModified).getTime()).toBeGreaterThanOrEqual(
      new Date(first[1].dateModified).getTime(),
    )

    expect((await save(core, customerId, { key: 'portal.language', value: null })).statusCode).toBe(200)
    expect((await save(core, customerId, { key: 'never.set', value: null })).statusCode).toBe(200)
    expect((await read(core, customerId)).json().map((c: { key: string }) => c.key)).toEqual([
      'currency.default',
    ])

    // Another customer's keys stay apart.
    const otherCustomer = await insertCustomer(ctx, org.businessId)
    expect((await read(core, otherCustomer)).json()).toEqual([])
  })

  it('answers 404 for a customer of another organisation or business, a deleted or an unknown one', async () => {
    const { org, core, signedIn } = await businessSession(ctx, await sharedOrganisation(ctx))
    const other = await sharedOrganisation(ctx, 'another')
    const foreign = await insertCustomer(ctx, other.org.businessId)
    const deleted = await insertCustomer(ctx, org.businessId, { deleted: true })
    const branch = await core({ method: 'POST', url: '/api/business', payload: { registeredName: 'Branch' } })
    const branchCustomer = await insertCustomer(ctx, branch.json().data.id)
    for (const customerId of [foreign, deleted, branchCustomer, randomUUID()]) {
      const listed = await read(core, customerId)
      expect(listed.statusCode).toBe(404)
      expect(listed.json().code).toBe('customer_not_found')
      expect((await save(core, customerId, { key: 'a', value: 'b' })).statusCode).toBe(404)
    }
    // The branch's customer is reachable when acting in the branch.
    const asBranch = coreAs(ctx, { accessToken: signedIn.accessToken, businessId: branch.json().data.id })
    expect((await read(asBranch, branchCustomer)).statusCode).toBe(200)
    expect((await read(other.core, foreign)).statusCode).toBe(200)
    expect(org.businessId).toBeTruthy()
  })

  it('validates the customer id, key and value', async () => {
    const { org, core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customerId = await insertCustomer(ctx, org.businessId)
    const missing = await core({ url: '/api/customer/configurations' })
    expect(missing.statusCode).toBe(400)
    expect(fieldsOf(missing).sort()).toEqual(['customerId'])
    expect(fieldsOf(await read(core, 'not-a-uuid')).sort()).toEqual(['customerId'])
    expect(fieldsOf(await save(core, 'not-a-uuid', { key: 'a', value: 'b' })).sort()).toEqual(['customerId'])

    const bad = await save(core, customerId, { key: 'has space', value: 'x'.repeat(4001) })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad).sort()).toEqual(['key', 'value'])
    expect(fieldsOf(await save(core, customerId, { key: 'k'.repeat(101), value: 'v' })).sort()).toEqual([
      'key',
    ])
    expect(fieldsOf(await save(core, customerId, { key: '', value: 'v' })).sort()).toEqual(['key'])
    expect(fieldsOf(await save(core, customerId, { key: 'a' })).sort()).toEqual(['value'])
    // A registry key is an override of that setting: its value must fit the type.
    const typed = await save(core, customerId, { key: 'stock.allowNegative', value: 'maybe' })
    expect(typed.statusCode).toBe(400)
    expect(fieldsOf(typed).sort()).toEqual(['value'])
    expect((await save(core, customerId, { key: 'k'.repeat(100), value: 'x'.repeat(4000) })).statusCode).toBe(
      200,
    )
    expect((await read(core, customerId)).json()).toHaveLength(1)
  })

  it('needs Settings Modify to save, View to read; works with an API key', async () => {
    const { org, core, signedIn } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customerId = await insertCustomer(ctx, org.businessId)
    await save(core, customerId, { key: 'a', value: 'b' })
    const member = await addMember(ctx, org.businessId, { role: 'Member' })
    const refused = await save(member.core, customerId, { key: 'a', value: 'c' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('permission_denied')
    expect((await read(member.core, customerId)).json()).toMatchObject([{ key: 'a', value: 'b' }])

    const key = coreAs(ctx, { apiKey: await createApiKey(ctx, signedIn.accessToken, org.businessId) })
    expect((await save(key, customerId, { key: 'a', value: 'via-key' })).statusCode).toBe(200)
    expect((await read(key, customerId)).json()).toMatchObject([{ key: 'a', value: 'via-key' }])
    expect(
      (await ctx.core.inject({ url: `/api/customer/configurations?customerId=${customerId}` })).statusCode,
    ).toBe(401)
  })
})
