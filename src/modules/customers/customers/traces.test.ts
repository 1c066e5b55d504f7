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
import { CUSTOMERS, createCustomer } from './customers.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

const tracesUrl = (customerId: string) => `${CUSTOMERS}/${customerId}/traces`
const HOUR = 3_600_000

describe('customer activity traces', () => {
  it('records a User entry and returns the customer; the timeline is newest occurredAt first', async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const occurredAt = new Date(Date.now() - 48 * HOUR).toISOString()
    const added = await core({
      method: 'POST',
      url: tracesUrl(customer.id),
      payload: { type: 'Visit', note: 'Site visit', occurredAt },
    })
    expect(added.statusCode).toBe(200)
    expect(added.json().data).toMatchObject({ id: customer.id, name: customer.name, contacts: [] })
    await core({ method: 'POST', url: tracesUrl(customer.id), payload: { type: 'Call' } })
    const soon = new Date(Date.now() + 12 * HOUR).toISOString()
    await core({
      method: 'POST',
      url: tracesUrl(customer.id),
      payload: { type: 'FollowUp', occurredAt: soon },
    })

    const list = await core({ url: tracesUrl(customer.id) })
    expect(list.statusCode).toBe(200)
    const body = list.json()
    expect(body).toMatchObject({
      totalCount: 4,
      count: 4,
      page: 1,
      finalPage: 1,
      hasMore: false,
      statusCode: 'OK',
    })
    expect(body.data.map((t: { type: string }) => t.type)).toEqual([
      'FollowUp',
      'Call',
      'CustomerCreated',
      'Visit',
    ])
    expect(body.data[3]).toEqual({
      id: expect.any(String),
      customerId: customer.id,
      orderId: null,
      type: 'Visit',
      note: 'Site visit',
      source: 'User',
      createdBy: { id: org.userId, displayName: 'Ada Lovelace' },
      occurredAt: new Date(occurredAt).toISOString(),
      dateCreated: expect.any(String),
    })
    expect(body.data[2]).toMatchObject({ type: 'CustomerCreated', source: 'System', note: null })
  })

  it('pages and filters the timeline', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    for (let i = 0; i < 4; i++) {
      const occurredAt = new Date(Date.now() - (i + 1) * HOUR).toISOString()
      await core({ method: 'POST', url: tracesUrl(customer.id), payload: { type: `Call ${i}`, occurredAt } })
    }
    const page = (n: number) => core({ url: `${tracesUrl(customer.id)}?PageSize=2&Page=${n}` })
    const first = (await page(1)).json()
    expect(first).toMatchObject({ count: 2, totalCount: 5, finalPage: 3, hasMore: true })
    const types = [...first.data, ...(await page(2)).json().data, ...(await page(3)).json().data].map(
      (t: { type: string }) => t.type,
    )
    expect(types).toEqual(['CustomerCreated', 'Call 0', 'Call 1', 'Call 2', 'Call 3'])
    const users = (
      await core({ url: `${tracesUrl(customer.id)}?$filter=source eq 'user'&$orderby=occurredAt asc` })
    ).json()
    expect(users.data.map((t: { type: string }) => t.type)).toEqual(['Call 3', 'Call 2', 'Call 1', 'Call 0'])
    const searched = (await core({ url: `${tracesUrl(customer.id)}?$search=call 2` })).json()
    expect(searched.data.map((t: { type: string }) => t.type)).toEqual(['Call 2'])
  })

  it('names each invalid field in a 400, including an occurredAt more than a day ahead', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const invalid = await core({
      method: 'POST',
      url: tracesUrl(customer.id),
      payload: { note: 'n'.repeat(2001), occurredAt: 'yesterday' },
    })
    expect(invalid.statusCode).toBe(400)
    expect(fieldsOf(invalid).sort()).toEqual(['note', 'occurredAt', 'type'])
    const long = await core({
      method: 'POST',
      url: tracesUrl(customer.id),
      payload: { type: 't'.repeat(51) },
    })
    expect(fieldsOf(long)).toEqual(['type'])
    const future = new Date(Date.now() + 25 * HOUR).toISOString()
    const ahead = await core({
      method: 'POST',
      url: tracesUrl(customer.id),
      payload: { type: 'Call', occurredAt: future },
    })
    expect(ahead.statusCode).toBe(400)
    expect(fieldsOf(ahead)).toEqual(['occurredAt'])
    const badQuery = await core({ url: `${tracesUrl(customer.id)}?$filter=mood eq 'good'` })
    expect(fieldsOf(badQuery)).toEqual(['$filter'])
    expect((await core({ url: tracesUrl(customer.id) })).json().totalCount).toBe(1)
  })

  it("gives 404 for unknown and another organisation's customers", async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const other = await sharedOrganisation(ctx, 'another')
    const foreign = await createCustomer(other.core)
    for (const id of [foreign.id, randomUUID()]) {
      expect((await core({ url: tracesUrl(id) })).statusCode).toBe(404)
      const add = await core({ method: 'POST', url: tracesUrl(id), payload: { type: 'Call' } })
      expect(add.statusCode).toBe(404)
      expect(add.json().code).toBe('customer_not_found')
    }
    expect((await other.core({ url: tracesUrl(foreign.id) })).json().totalCount).toBe(1)
  })

  it('lets a Member read the timeline but not add to it (403)', async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customer = await createCustomer(core)
    const member = await addMember(ctx, org.businessId)
    expect((await member.core({ url: tracesUrl(customer.id) })).statusCode).toBe(200)
    expect(
      (await member.core({ method: 'POST', url: tracesUrl(customer.id), payload: { type: 'Call' } }))
        .statusCode,
    ).toBe(403)
  })
})
