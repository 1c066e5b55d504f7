import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  businessSession,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { CUSTOMERS, createCustomer, tracesOf } from './customers.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

const metadataUrl = (customerId: string) => `${CUSTOMERS}/${customerId}/metadata`

describe('POST /api/v1/Customers/{customerId}/metadata', () => {
  it('adds and overwrites with a value, removes with null, keeps keys not sent', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core, { metadata: { erpId: 'C-1', region: 'West', legacy: 'x' } })
    const response = await core({
      method: 'POST',
      url: metadataUrl(customer.id),
      payload: { region: 'East', tier: 'Gold', legacy: null, neverThere: null },
    })
    expect(response.statusCode).toBe(200)
    const data = response.json().data
    expect(data).toMatchObject({ id: customer.id, name: customer.name })
    expect(data.metadata).toEqual({ erpId: 'C-1', region: 'East', tier: 'Gold' })
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.metadata).toEqual(data.metadata)
    expect((await tracesOf(core, customer.id))[0]).toMatchObject({
      type: 'MetadataChanged',
      source: 'System',
      note: 'Set: region, tier; Removed: legacy, neverThere',
    })
    // The list filters on the merged values.
    const filtered = await core({ url: `${CUSTOMERS}?$filter=metadata/tier eq 'Gold'` })
    expect(filtered.json().data.map((c: { id: string }) => c.id)).toEqual([customer.id])
    expect((await core({ url: `${CUSTOMERS}?$filter=metadata/legacy ne null` })).json().totalCount).toBe(0)
  })

  it('keeps an empty-string value as a value, distinct from null', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core, { metadata: { a: '1' } })
    const response = await core({ method: 'POST', url: metadataUrl(customer.id), payload: { a: '', b: '' } })
    expect(response.json().data.metadata).toEqual({ a: '', b: '' })
  })

  it('names the offending key in a 400: key length, value length', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core, { metadata: { keep: 'me' } })
    const longKey = 'k'.repeat(101)
    const keys = await core({
      method: 'POST',
      url: metadataUrl(customer.id),
      payload: { [longKey]: 'v', ' ': 'v' },
    })
    expect(keys.statusCode).toBe(400)
    expect(fieldsOf(keys).sort()).toEqual([' ', longKey].sort())
    const value = await core({
      method: 'POST',
      url: metadataUrl(customer.id),
      payload: { note: 'v'.repeat(1001), ok: 'v' },
    })
    expect(value.statusCode).toBe(400)
    expect(fieldsOf(value)).toEqual(['note'])
    const notText = await core({
      method: 'POST',
      url: metadataUrl(customer.id),
      payload: { nested: { a: 1 } },
    })
    expect(fieldsOf(notText)).toEqual(['nested'])
    const empty = await core({ method: 'POST', url: metadataUrl(customer.id), payload: {} })
    expect(empty.statusCode).toBe(400)
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.metadata).toEqual({ keep: 'me' })
  })

  it('allows at most 50 keys after the merge; a removal in the same request makes room', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']))
    const customer = await createCustomer(core, { metadata: fifty })
    const over = await core({
      method: 'POST',
      url: metadataUrl(customer.id),
      payload: { k0: 'changed', extra: 'v' },
    })
    expect(over.statusCode).toBe(400)
    expect(fieldsOf(over)).toEqual(['extra'])
    expect((await core({ url: `${CUSTOMERS}/${customer.id}` })).json().data.metadata.k0).toBe('v')
    const swap = await core({
      method: 'POST',
      url: metadataUrl(customer.id),
      payload: { k0: null, extra: 'v' },
    })
    expect(swap.statusCode).toBe(200)
    const metadata = swap.json().data.metadata
    expect(Object.keys(metadata)).toHaveLength(50)
    expect(metadata).toMatchObject({ extra: 'v' })
    expect(metadata.k0).toBeUndefined()
  })

  it("gives 404 for unknown and another organisation's customers; a Member gets 403", async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const other = await sharedOrganisation(ctx, 'another')
    const foreign = await createCustomer(other.core, { metadata: { a: '1' } })
    for (const id of [foreign.id, randomUUID()]) {
      const response = await core({ method: 'POST', url: metadataUrl(id), payload: { a: '2' } })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('customer_not_found')
    }
    expect((await other.core({ url: `${CUSTOMERS}/${foreign.id}` })).json().data.metadata).toEqual({ a: '1' })
    const customer = await createCustomer(core)
    const member = await addMember(ctx, org.businessId)
    expect(
      (await member.core({ method: 'POST', url: metadataUrl(customer.id), payload: { a: '1' } })).statusCode,
    ).toBe(403)
  })
})
