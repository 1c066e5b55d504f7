import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addBusiness,
  addMember,
  addRole,
  businessSession,
  createApiKey,
  insertCustomer,
  organizationIdOf,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, coreAs, useTestContext } from '../../../../test/harness.js'
import { deleteCustomer, insertShipment, line, orderWithStatus } from '../../sales/orders/orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

/** Month `k` months before the current UTC month, as Date.UTC arguments allow (negative months roll back). */
const now = new Date()
const at = (monthsAgo: number, day = 15, hour = 12) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, day, hour)).toISOString()
const monthKey = (monthsAgo: number) => at(monthsAgo).slice(0, 7)
/** The last second before the 12-month window opens. */
const justBeforeWindow = new Date(
  Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1) - 1000,
).toISOString()

type Status = 'Draft' | 'Confirmed' | 'Fulfilled' | 'Cancelled'

/**
 * A fixed dataset (business currency USD), by hand:
 * - Alice: Fulfilled 3×19.99+0.5×10.10 = 65.02 and Confirmed 100 two months ago, Confirmed 30.50 this
 *   month, Fulfilled 40 fourteen months ago, Confirmed EUR 500 three months ago (counted, not summed),
 *   plus a Draft and a Cancelled order (not counted). 5 orders, USD revenue 235.52 over 4 orders.
 *   Shipments: Delivered 12.50 and 7.25, InTransit 3.00, Pending 0, Cancelled 100 (not a cost).
 * - Bob: Confirmed 100 at the first instant of the 12-month window, 5 and 1 months ago; Fulfilled 1
 *   one second before the window. 4 orders, revenue 301.
 * - Carol: one Fulfilled order of 301 last month. Dave: only a Draft.
 * - Erin (deleted): Confirmed 10000 (would rank first by spend if deleted customers were ranked).
 * Ranks by volume: Alice 1 (5), Bob 2 (4), Carol 3 (1). By spend: Bob and Carol 1 (301), Alice 2.
 */
async function dataset(organisation = 'first') {
  const owner = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const { core, org } = owner
  const businessId = org.businessId
  const customer = (name: string) => insertCustomer(ctx, businessId, { name })
  const [alice, bob, carol, dave, erin] = await Promise.all(
    ['Alice', 'Bob', 'Carol', 'Dave', 'Erin'].map(customer),
  )
  const order = (
    customerId: string,
    status: Status,
    orderDate: string,
    lines: unknown[],
    currency?: string,
  ) => orderWithStatus(core, { customerId, orderDate, lines, ...(currency ? { currency } : {}) }, status)

  await order(alice!, 'Fulfilled', at(2), [line(3, 19.99), line(0.5, 10.1)])
  await order(alice!, 'Confirmed', at(2, 20), [line(2, 50)])
  await order(alice!, 'Confirmed', at(0, 1, 0), [line(1, 30.5)])
  await order(alice!, 'Fulfilled', at(14), [line(1, 40)])
  await order(alice!, 'Confirmed', at(3), [line(1, 500)], 'EUR')
  await order(alice!, 'Draft', at(1), [line(10, 1)])
  await order(alice!, 'Cancelled', at(1), [line(1, 999)])
  await order(bob!, 'Confirmed', at(11, 1, 0), [line(1, 100)])
  await order(bob!, 'Confirmed', at(5), [line(1, 100)])
  await order(bob!, 'Confirmed', at(1), [line(1, 100)])
  await order(bob!, 'Fulfilled', justBeforeWindow, [line(1, 1)])
  await order(carol!, 'Fulfilled', at(1), [line(1, 301)])
  await order(dave!, 'Draft', at(1), [line(1, 5)])
  await order(erin!, 'Confirmed', at(1), [line(1, 10_000)])
  await deleteCustomer(ctx, businessId, erin!)

  const shipments: [string, number][] = [
    ['Delivered', 12.5],
    ['Delivered', 7.25],
    ['InTransit', 3],
    ['Pending', 0],
    ['Cancelled', 100],
  ]
  for (const [status, fulfillmentCost] of shipments) {
    await insertShipment(ctx, businessId, { customerId: alice!, status, fulfillmentCost })
  }
  return { ...owner, alice: alice!, bob: bob!, carol: carol!, dave: dave!, erin: erin! }
}

/**
 * Another business in the same organisation (same schema): a big customer of its own, and rows
 * pointing at Alice under the other business id. None of it may reach the first business's numbers.
 */
async function pollute(businessId: string, alice: string) {
  const schema = await schemaOf(ctx, businessId)
  const branch = await addBusiness(ctx, businessId)
  const whale = await insertCustomer(ctx, branch, { name: 'Whale' })
  for (const customerId of [whale, alice]) {
    await ctx.database.db
      .withSchema(schema)
      .insertInto('orders')
      .values({
        id: randomUUID(),
        business_id: branch,
        code: `ORD-X${customerId.slice(0, 6)}`,
        customer_id: customerId,
        status: 'Confirmed',
        order_date: at(1),
        currency: 'USD',
        total: 99_999,
      })
      .execute()
    await insertShipment(ctx, branch, { customerId, status: 'Delivered', fulfillmentCost: 555 })
  }
  return { branch, whale }
}

const kpi = (core: Core, customerId: string) => core({ url: `/api/v1/Customers/${customerId}/kpi-metrics` })
const sales = (core: Core, customerId: string) =>
  core({ url: `/api/v1/customers/${customerId}/sales-analytics` })

/** The 12 months, oldest first, with the given months (by months-ago) filled in. */
function months(filled: Record<number, [number, number]>) {
  return Array.from({ length: 12 }, (_, i) => {
    const ago = 11 - i
    const [orderCount, revenue] = filled[ago] ?? [0, 0]
    return { month: monthKey(ago), orderCount, revenue }
  })
}

describe('GET /api/v1/Customers/{customerId}/kpi-metrics', () => {
  it('computes orders, revenue, deliveries, cost, average and dense ranks as defined', async () => {
    const t = await dataset()
    await pollute(t.org.businessId, t.alice)
    const alice = await kpi(t.core, t.alice)
    expect(alice.statusCode).toBe(200)
    expect(alice.json().statusCode).toBe('OK')
    expect(alice.json().data).toEqual({
      customerId: t.alice,
      totalOrders: 5,
      totalRevenue: 235.52,
      totalDeliveries: 2,
      fulfillmentCost: 22.75,
      averageOrderValue: 58.88,
      rankByOrderVolume: 1,
      rankBySpend: 2,
      rankedCustomers: 3,
      currency: 'USD',
      firstOrderDate: at(14),
      lastOrderDate: at(0, 1, 0),
      // Every order, counted or not: the draft and the cancelled one too.
      ordersByStatus: { Cancelled: 1, Confirmed: 3, Draft: 1, Fulfilled: 2 },
    })
    expect((await kpi(t.core, t.bob)).json().data).toEqual({
      customerId: t.bob,
      totalOrders: 4,
      totalRevenue: 301,
      totalDeliveries: 0,
      fulfillmentCost: 0,
      averageOrderValue: 75.25,
      rankByOrderVolume: 2,
      rankBySpend: 1,
      rankedCustomers: 3,
      currency: 'USD',
      firstOrderDate: justBeforeWindow,
      lastOrderDate: at(1),
      ordersByStatus: { Confirmed: 3, Fulfilled: 1 },
    })
    expect((await kpi(t.core, t.carol)).json().data).toMatchObject({
      totalOrders: 1,
      totalRevenue: 301,
      averageOrderValue: 301,
      rankByOrderVolume: 3,
      rankBySpend: 1,
    })
    expect((await kpi(t.core, t.dave)).json().data).toEqual({
      customerId: t.dave,
      totalOrders: 0,
      totalRevenue: 0,
      totalDeliveries: 0,
      fulfillmentCost: 0,
      averageOrderValue: 0,
      rankByOrderVolume: null,
      rankBySpend: null,
      rankedCustomers: 3,
      currency: 'USD',
      firstOrderDate: null,
      lastOrderDate: null,
      // Dave's one order is a draft: none counted, but not none at all.
      ordersByStatus: { Draft: 1 },
    })
  })

  it('follows status changes: a cancelled order stops counting', async () => {
    const t = await dataset()
    const extra = await orderWithStatus(
      t.core,
      { customerId: t.carol, orderDate: at(1), lines: [line(4, 100)] },
      'Confirmed',
    )
    expect((await kpi(t.core, t.carol)).json().data).toMatchObject({
      totalOrders: 2,
      totalRevenue: 701,
      rankBySpend: 1,
    })
    expect((await kpi(t.core, t.bob)).json().data).toMatchObject({ rankByOrderVolume: 2, rankBySpend: 2 })
    await t.core({ method: 'POST', url: `/api/v1/orders/${extra.id}/cancel` })
    expect((await kpi(t.core, t.carol)).json().data).toMatchObject({
      totalOrders: 1,
      totalRevenue: 301,
      rankBySpend: 1,
    })
  })
})

describe('GET /api/v1/Customers/{customerId}/sales-analytics', () => {
  it('gives exactly the last 12 UTC months, zero-filled, oldest first, with totals', async () => {
    const t = await dataset()
    await pollute(t.org.businessId, t.alice)
    const alice = await sales(t.core, t.alice)
    expect(alice.statusCode).toBe(200)
    expect(alice.json().data).toEqual({
      customerId: t.alice,
      currency: 'USD',
      // Two months ago: 65.02 + 100; three months ago: the EUR order counts but is not summed.
      months: months({ 2: [2, 165.02], 3: [1, 0], 0: [1, 30.5] }),
      // 195.52 over the 3 USD orders = 65.17333…
      totals: { orderCount: 4, revenue: 195.52, averageOrderValue: 65.1733 },
    })
    expect(alice.json().data.months[11].month).toBe(now.toISOString().slice(0, 7))

    expect((await sales(t.core, t.bob)).json().data).toEqual({
      customerId: t.bob,
      currency: 'USD',
      months: months({ 11: [1, 100], 5: [1, 100], 1: [1, 100] }),
      totals: { orderCount: 3, revenue: 300, averageOrderValue: 100 },
    })
    expect((await sales(t.core, t.dave)).json().data).toEqual({
      customerId: t.dave,
      currency: 'USD',
      months: months({}),
      totals: { orderCount: 0, revenue: 0, averageOrderValue: 0 },
    })
  })
})

describe('customer analytics: scope, credentials and permissions', () => {
  it("is a 404 for a deleted, unknown or another business's customer, and a 400 for a malformed id", async () => {
    const t = await dataset()
    const { branch, whale } = await pollute(t.org.businessId, t.alice)
    const other = await sharedOrganisation(ctx, 'another')
    const cases: [Core, string][] = [
      [t.core, t.erin],
      [t.core, randomUUID()],
      [t.core, whale],
      [other.core, t.alice],
    ]
    for (const [core, customerId] of cases) {
      for (const get of [kpi, sales]) {
        const response = await get(core, customerId)
        expect(response.statusCode).toBe(404)
        expect(response.json().code).toBe('customer_not_found')
      }
    }
    const malformed = await kpi(t.core, 'abc')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().reasons[0].field).toBe('customerId')
    // The branch sees only its own: Whale ranks first of one there.
    const asBranch = coreAs(ctx, { accessToken: t.signedIn.accessToken, businessId: branch })
    expect((await kpi(asBranch, whale)).json().data).toMatchObject({
      totalOrders: 1,
      totalRevenue: 99_999,
      totalDeliveries: 1,
      fulfillmentCost: 555,
      rankByOrderVolume: 1,
      rankedCustomers: 1,
    })
    expect((await kpi(asBranch, t.alice)).statusCode).toBe(404)
  })

  it('works with an API key; needs a credential and Customers View (a Member may read)', async () => {
    const t = await dataset()
    const key = await createApiKey(ctx, t.signedIn.accessToken, t.org.businessId, { label: 'orders test' })
    const withKey = coreAs(ctx, { apiKey: key })
    expect((await kpi(withKey, t.alice)).json().data.totalRevenue).toBe(235.52)
    expect((await sales(withKey, t.bob)).json().data.totals.revenue).toBe(300)
    expect((await ctx.core.inject({ url: `/api/v1/Customers/${t.alice}/kpi-metrics` })).statusCode).toBe(401)
    const member = await addMember(ctx, t.org.businessId)
    expect((await kpi(member.core, t.alice)).statusCode).toBe(200)
    const organizationId = await organizationIdOf(ctx, t.org.businessId)
    const ordersOnly = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Orders: 7 }),
    })
    for (const get of [kpi, sales]) {
      const refused = await get(ordersOnly.core, t.alice)
      expect(refused.statusCode).toBe(403)
      expect(refused.json().code).toBe('permission_denied')
    }
  })
})
