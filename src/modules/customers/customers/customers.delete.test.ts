import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf, freshBusiness, schemaOf } from '../../../../test/fixtures.js'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { CUSTOMERS, createCustomer, tracesOf } from './customers.fixtures.js'

const ctx = useTestContext()
// Customers belong to a business: each test starts from a fresh business of one organisation, and
// "another organisation" is one more, shared by the tests that need a stranger's customers.
const owner = useOwnerSession(ctx)
const stranger = useOwnerSession(ctx)

const BULK = `${CUSTOMERS}/delete-customers`

async function liveIds(core: Core) {
  return (await core({ url: `${CUSTOMERS}?PageSize=100` }))
    .json()
    .data.map((c: { id: string }) => c.id)
    .sort()
}

describe('DELETE /api/v1/Customers/{customerId}', () => {
  it('soft-deletes: the API answers 404 afterwards, but orders and traces stay in the database', async () => {
    const { core, businessId } = await freshBusiness(ctx, owner)
    const customer = await createCustomer(core, { contacts: [{ firstName: 'Jane' }] })
    await core({
      method: 'POST',
      url: `${CUSTOMERS}/${customer.id}/traces`,
      payload: { type: 'Call', note: 'Asked for a quote' },
    })
    const schema = await schemaOf(ctx, businessId)
    const db = ctx.database.db.withSchema(schema)
    const orderId = randomUUID()
    await db
      .insertInto('orders')
      .values({
        id: orderId,
        business_id: businessId,
        code: 'ORD-000001',
        customer_id: customer.id,
        order_date: new Date(),
        currency: 'ZAR',
      })
      .execute()

    const response = await core({ method: 'DELETE', url: `${CUSTOMERS}/${customer.id}` })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ data: true, statusCode: 'OK' })

    for (const request of [
      { url: `${CUSTOMERS}/${customer.id}` },
      { method: 'PUT' as const, url: `${CUSTOMERS}/${customer.id}`, payload: { name: 'Back' } },
      { method: 'DELETE' as const, url: `${CUSTOMERS}/${customer.id}` },
      { url: `${CUSTOMERS}/${customer.id}/traces` },
      { method: 'POST' as const, url: `${CUSTOMERS}/${customer.id}/traces`, payload: { type: 'Call' } },
      { method: 'POST' as const, url: `${CUSTOMERS}/${customer.id}/contacts`, payload: { firstName: 'A' } },
      { method: 'POST' as const, url: `${CUSTOMERS}/${customer.id}/metadata`, payload: { a: 'b' } },
    ]) {
      const after = await core(request)
      expect(after.statusCode, `${request.method ?? 'GET'} ${request.url}`).toBe(404)
      expect(after.json().code).toBe('customer_not_found')
    }
    expect(await liveIds(core)).toEqual([])

    // History: the order still points at the customer row, which still exists, with its traces.
    const order = await db
      .selectFrom('orders as o')
      .innerJoin('customers as c', 'c.id', 'o.customer_id')
      .select(['o.id', 'c.name', 'c.deleted_at'])
      .where('o.id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order).toMatchObject({ id: orderId, name: customer.name, deleted_at: expect.any(Date) })
    const traces = await db
      .selectFrom('activity_traces')
      .select(['type', 'source'])
      .where('customer_id', '=', customer.id)
      .orderBy('date_created')
      .execute()
    expect(traces.map((t) => t.type).sort()).toEqual(['Call', 'CustomerCreated', 'CustomerDeleted'])
  })

  it("gives 404 for unknown ids and another organisation's customers, and deletes nothing there", async () => {
    const { core } = await freshBusiness(ctx, owner)
    const other = stranger
    const foreign = await createCustomer(other.core)
    for (const id of [foreign.id, randomUUID()]) {
      const response = await core({ method: 'DELETE', url: `${CUSTOMERS}/${id}` })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('customer_not_found')
    }
    expect((await other.core({ url: `${CUSTOMERS}/${foreign.id}` })).statusCode).toBe(200)
  })
})

describe('PUT /api/v1/Customers/delete-customers', () => {
  it('deletes every listed customer, each with a CustomerDeleted trace', async () => {
    const { core, businessId } = await freshBusiness(ctx, owner)
    const [a, b, keep] = [await createCustomer(core), await createCustomer(core), await createCustomer(core)]
    const response = await core({
      method: 'PUT',
      url: BULK,
      payload: { customerIds: [a.id, b.id.toUpperCase()] },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toBe(true)
    expect(await liveIds(core)).toEqual([keep.id])
    const schema = await schemaOf(ctx, businessId)
    const deletedTraces = await ctx.database.db
      .withSchema(schema)
      .selectFrom('activity_traces')
      .select('customer_id')
      .where('business_id', '=', businessId)
      .where('type', '=', 'CustomerDeleted')
      .execute()
    expect(deletedTraces.map((t) => t.customer_id).sort()).toEqual([a.id, b.id].sort())
  })

  it('is all or nothing: an unknown, foreign or already deleted id gives a 404 naming it, and nothing is deleted', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const other = stranger
    const foreign = await createCustomer(other.core)
    const [a, b, gone] = [await createCustomer(core), await createCustomer(core), await createCustomer(core)]
    await core({ method: 'DELETE', url: `${CUSTOMERS}/${gone.id}` })
    const unknown = randomUUID()
    for (const bad of [[unknown], [foreign.id], [gone.id], [unknown, foreign.id]]) {
      const response = await core({
        method: 'PUT',
        url: BULK,
        payload: { customerIds: [a.id, ...bad, b.id] },
      })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('customer_not_found')
      for (const id of bad) expect(response.json().message).toContain(id)
      expect(response.json().message).not.toContain(a.id)
    }
    expect(await liveIds(core)).toEqual([a.id, b.id].sort())
    expect((await tracesOf(core, a.id)).map((t) => t.type)).toEqual(['CustomerCreated'])
    expect((await other.core({ url: `${CUSTOMERS}/${foreign.id}` })).statusCode).toBe(200)
  })

  it('validates the id list (400 customerIds)', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const a = await createCustomer(core)
    const tooMany = Array.from({ length: 501 }, () => randomUUID())
    for (const customerIds of [[], [a.id, a.id], [a.id, a.id.toUpperCase()], ['nope'], tooMany]) {
      const response = await core({ method: 'PUT', url: BULK, payload: { customerIds } })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)[0]).toMatch(/^customerIds/)
    }
    const missing = await core({ method: 'PUT', url: BULK, payload: {} })
    expect(fieldsOf(missing)).toEqual(['customerIds'])
    expect(await liveIds(core)).toEqual([a.id])
  })

  it('is never taken for PUT /{customerId}, in any letter case', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const a = await createCustomer(core)
    const response = await core({
      method: 'PUT',
      url: '/api/v1/customers/DELETE-CUSTOMERS',
      payload: { customerIds: [a.id] },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toBe(true)
    expect(await liveIds(core)).toEqual([])
    // Without a body it is still the bulk route (400 naming customerIds), not a customer id.
    const empty = await core({
      method: 'PUT',
      url: '/api/v1/Customers/Delete-Customers',
      payload: { name: 'x' },
    })
    expect(fieldsOf(empty)).toEqual(['customerIds'])
  })
})

describe('the total of an unfiltered list (the live-customer count kept by a trigger)', () => {
  const totals = async (core: Core) =>
    Promise.all(
      ['', '?$orderby=name', `?$filter=${encodeURIComponent("name ne 'nobody'")}`].map(
        async (query) => (await core({ url: `${CUSTOMERS}${query}` })).json().totalCount as number,
      ),
    )

  it('follows creates, single and bulk deletes, and agrees with a filtered count', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const created = []
    for (let i = 0; i < 5; i++) created.push(await createCustomer(core, { name: `Counted ${i}` }))
    expect(await totals(core)).toEqual([5, 5, 5])
    expect((await core({ method: 'DELETE', url: `${CUSTOMERS}/${created[0]?.id}` })).statusCode).toBe(200)
    // A second delete of the same customer is a 404 and changes no count.
    expect((await core({ method: 'DELETE', url: `${CUSTOMERS}/${created[0]?.id}` })).statusCode).toBe(404)
    const bulk = await core({
      method: 'PUT',
      url: BULK,
      payload: { customerIds: [created[1]?.id, created[2]?.id] },
    })
    expect(bulk.statusCode).toBe(200)
    expect(await totals(core)).toEqual([2, 2, 2])
  })

  it('counts parallel creates exactly, each business on its own', async () => {
    const first = await freshBusiness(ctx, owner)
    const second = await freshBusiness(ctx, owner)
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => createCustomer(first.core, { name: `Parallel ${i}` })),
      ...Array.from({ length: 7 }, (_, i) => createCustomer(second.core, { name: `Other ${i}` })),
    ])
    expect(await totals(first.core)).toEqual([12, 12, 12])
    expect(await totals(second.core)).toEqual([7, 7, 7])
  })
})
