import { describe, expect, it } from 'vitest'
import {
  addBusiness,
  addMember,
  addRole,
  createApiKey,
  fieldsOf,
  insertCustomer,
  organizationIdOf,
} from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { line, orderWithStatus } from '../../sales/orders/orders.fixtures.js'
import {
  addDays,
  dashboard,
  insertPlanOn,
  insertShipmentAt,
  setTimeZone,
  todayIn,
} from './dashboard.fixtures.js'

const ctx = useTestContext()

/** The range the tests ask for, and the previous period of equal length. */
const RANGE = { from: '2026-03-11', to: '2026-03-20' }

/**
 * A business in Africa/Johannesburg (UTC+2, no daylight saving), currency USD. By hand, range
 * 11..20 March local, previous period 1..10 March:
 * Orders (counted = Confirmed/Fulfilled): Alice 100 (11th) + 50 Fulfilled (15th) + EUR 1000
 * (counted, not summed) + a Draft and a Cancelled; Bob 200 at 21:59 UTC on the 20th (23:59 local,
 * in) and 70 at 22:30 UTC on the 20th (00:30 on the 21st local, out); Carol 30 at 21:30 UTC on the
 * 10th (previous) and 25 at 22:30 UTC on the 10th (the 11th local, current); Alice 40 on the 5th
 * (previous). Current: 5 counted, revenue 375 over 4 USD orders; previous: 2, revenue 70.
 * Shipments: current s1 on time, s2 delivered 00:30 local the day after its scheduled day (late),
 * s3 delivered without a scheduled day, s5 created 22:30 UTC on the 10th (11th local), s6
 * Cancelled; s4 created on the 21st local (out). Previous: s7 delivered on time, s8 Pending.
 * Plans: 11th Draft and Scheduled, 14th Completed, 18th Cancelled; 9th Dispatched (previous); 21st (out).
 */
async function dataset() {
  const owner = await ownerSession(ctx)
  const { core, org } = owner
  const businessId = org.businessId
  await setTimeZone(ctx, businessId, 'Africa/Johannesburg')
  const [alice, bob, carol] = await Promise.all(
    ['Alice', 'Bob', 'Carol'].map((name) => insertCustomer(ctx, businessId, { name })),
  )
  type Status = 'Draft' | 'Confirmed' | 'Fulfilled' | 'Cancelled'
  const order = (customerId: string, status: Status, orderDate: string, amount: number, currency?: string) =>
    orderWithStatus(
      core,
      { customerId, orderDate, lines: [line(1, amount)], ...(currency ? { currency } : {}) },
      status,
    )
  await order(alice!, 'Confirmed', '2026-03-11T08:00:00Z', 100)
  await order(alice!, 'Fulfilled', '2026-03-15T10:00:00Z', 50)
  await order(alice!, 'Confirmed', '2026-03-16T10:00:00Z', 1000, 'EUR')
  await order(alice!, 'Draft', '2026-03-16T10:00:00Z', 999)
  await order(bob!, 'Cancelled', '2026-03-17T10:00:00Z', 500)
  await order(bob!, 'Confirmed', '2026-03-20T21:59:00Z', 200)
  await order(bob!, 'Confirmed', '2026-03-20T22:30:00Z', 70)
  await order(carol!, 'Confirmed', '2026-03-10T21:30:00Z', 30)
  await order(carol!, 'Confirmed', '2026-03-10T22:30:00Z', 25)
  await order(alice!, 'Confirmed', '2026-03-05T12:00:00Z', 40)

  const shipments = [
    {
      status: 'Delivered',
      created: '2026-03-12T10:00:00Z',
      scheduled: '2026-03-14T08:00:00Z',
      delivered: '2026-03-14T20:00:00Z',
    },
    {
      status: 'Delivered',
      created: '2026-03-12T10:00:00Z',
      scheduled: '2026-03-14T08:00:00Z',
      delivered: '2026-03-14T22:30:00Z',
    },
    { status: 'Delivered', created: '2026-03-13T10:00:00Z', delivered: '2026-03-16T09:00:00Z' },
    { status: 'Pending', created: '2026-03-20T22:30:00Z' },
    { status: 'InTransit', created: '2026-03-10T22:30:00Z' },
    { status: 'Cancelled', created: '2026-03-15T10:00:00Z' },
    {
      status: 'Delivered',
      created: '2026-03-05T10:00:00Z',
      scheduled: '2026-03-06T08:00:00Z',
      delivered: '2026-03-06T10:00:00Z',
    },
    { status: 'Pending', created: '2026-03-05T10:00:00Z' },
  ]
  for (const shipment of shipments) await insertShipmentAt(ctx, businessId, shipment)
  const plans: [string, string][] = [
    ['2026-03-11', 'Draft'],
    ['2026-03-11', 'Scheduled'],
    ['2026-03-14', 'Completed'],
    ['2026-03-18', 'Cancelled'],
    ['2026-03-09', 'Dispatched'],
    ['2026-03-21', 'Draft'],
  ]
  for (const [day, status] of plans) await insertPlanOn(ctx, businessId, day, status)
  return { ...owner, alice: alice!, bob: bob!, carol: carol! }
}

/** Rows of another business of the same organisation, and of another organisation, on the same days. */
async function pollute(businessId: string) {
  const branch = await addBusiness(ctx, businessId)
  const other = await ownerSession(ctx)
  for (const id of [branch, other.org.businessId]) {
    await insertShipmentAt(ctx, id, {
      status: 'Delivered',
      created: '2026-03-12T10:00:00Z',
      delivered: '2026-03-12T11:00:00Z',
      scheduled: '2026-03-11T10:00:00Z',
    })
    await insertPlanOn(ctx, id, '2026-03-12', 'Scheduled')
  }
  const whale = await insertCustomer(ctx, other.org.businessId, { name: 'Whale' })
  await orderWithStatus(
    other.core,
    { customerId: whale, orderDate: '2026-03-12T10:00:00Z', lines: [line(1, 99_999)] },
    'Confirmed',
  )
  return other
}

const zeros = (names: string[]) => Object.fromEntries(names.map((n) => [n, 0]))

describe('GET /api/v1/insights/dashboard/summary', () => {
  it('computes orders, revenue, shipments, on-time rate, plans and the change against the previous period', async () => {
    const t = await dataset()
    await pollute(t.org.businessId)
    const response = await dashboard(t.core, 'summary', RANGE)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().statusCode).toBe('OK')
    expect(response.json().data).toEqual({
      from: '2026-03-11',
      to: '2026-03-20',
      timeZone: 'Africa/Johannesburg',
      previousFrom: '2026-03-01',
      previousTo: '2026-03-10',
      currency: 'USD',
      orders: {
        count: 5,
        revenue: 375,
        averageOrderValue: 93.75,
        byStatus: { Draft: 1, Confirmed: 4, Fulfilled: 1, Cancelled: 1 },
      },
      shipments: {
        count: 5,
        byStatus: {
          ...zeros(['Pending', 'Assigned', 'Failed', 'Returned']),
          Delivered: 3,
          InTransit: 1,
          Cancelled: 1,
        },
        delivered: 3,
        deliveredOnTime: 1,
        onTimeRate: 0.5,
      },
      plans: { count: 4, byStatus: { Draft: 1, Scheduled: 1, Dispatched: 0, Completed: 1, Cancelled: 1 } },
      changes: {
        orderCount: { current: 5, previous: 2, change: 3, changePercent: 150 },
        revenue: { current: 375, previous: 70, change: 305, changePercent: 435.71 },
        shipmentCount: { current: 5, previous: 2, change: 3, changePercent: 150 },
        deliveredCount: { current: 3, previous: 1, change: 2, changePercent: 200 },
        planCount: { current: 4, previous: 1, change: 3, changePercent: 300 },
        onTimeRate: { current: 0.5, previous: 1, change: -0.5 },
      },
    })
  })

  it('defaults to the last 30 days up to today in the business time zone, and answers zeros with no data', async () => {
    const { core, org } = await ownerSession(ctx)
    await setTimeZone(ctx, org.businessId, 'Pacific/Auckland')
    const today = todayIn('Pacific/Auckland')
    const data = (await dashboard(core, 'summary')).json().data
    expect(data).toMatchObject({
      from: addDays(today, -29),
      to: today,
      previousFrom: addDays(today, -59),
      previousTo: addDays(today, -30),
      orders: { count: 0, revenue: 0, averageOrderValue: 0 },
      shipments: { count: 0, delivered: 0, onTimeRate: null },
      changes: { orderCount: { changePercent: null }, onTimeRate: { current: null, change: null } },
    })
    // Only `to`: the 30 days before it; only `from`: up to today.
    expect((await dashboard(core, 'summary', { to: '2026-03-30' })).json().data.from).toBe('2026-03-01')
    expect((await dashboard(core, 'summary', { from: addDays(today, -1) })).json().data).toMatchObject({
      from: addDays(today, -1),
      to: today,
      previousFrom: addDays(today, -3),
    })
  })

  it('puts an order at 23:30 UTC in the next local day in Pacific/Auckland', async () => {
    const { core, org } = await ownerSession(ctx)
    await setTimeZone(ctx, org.businessId, 'Pacific/Auckland')
    const customerId = await insertCustomer(ctx, org.businessId)
    await orderWithStatus(
      core,
      { customerId, orderDate: '2026-03-20T23:30:00Z', lines: [line(1, 10)] },
      'Confirmed',
    )
    await insertShipmentAt(ctx, org.businessId, { status: 'Pending', created: '2026-03-20T23:30:00Z' })
    const on = async (day: string) => (await dashboard(core, 'summary', { from: day, to: day })).json().data
    expect((await on('2026-03-20')).orders.count).toBe(0)
    expect(await on('2026-03-21')).toMatchObject({
      orders: { count: 1, revenue: 10 },
      shipments: { count: 1 },
    })
    const series = (
      await dashboard(core, 'shipment-volumes', { from: '2026-03-20', to: '2026-03-22' })
    ).json().data
    expect(series.buckets).toEqual([
      { start: '2026-03-20', end: '2026-03-20', count: 0 },
      { start: '2026-03-21', end: '2026-03-21', count: 1 },
      { start: '2026-03-22', end: '2026-03-22', count: 0 },
    ])
  })
})

describe('GET /api/v1/insights/dashboard/{shipment,dispatch}-volumes', () => {
  it('gives every local day of the range, zeros included', async () => {
    const t = await dataset()
    await pollute(t.org.businessId)
    const days = (counts: Record<string, number>) =>
      Array.from({ length: 10 }, (_, i) => {
        const day = addDays(RANGE.from, i)
        return { start: day, end: day, count: counts[day] ?? 0 }
      })
    const shipments = await dashboard(t.core, 'shipment-volumes', RANGE)
    expect(shipments.statusCode, shipments.body).toBe(200)
    expect(shipments.json().data).toEqual({
      from: '2026-03-11',
      to: '2026-03-20',
      timeZone: 'Africa/Johannesburg',
      granularity: 'Day',
      total: 5,
      buckets: days({ '2026-03-11': 1, '2026-03-12': 2, '2026-03-13': 1, '2026-03-15': 1 }),
    })
    const plans = (await dashboard(t.core, 'dispatch-volumes', RANGE)).json().data
    expect(plans.total).toBe(3)
    expect(plans.buckets).toEqual(days({ '2026-03-11': 2, '2026-03-14': 1 }))
  })

  it('groups by Monday weeks and by months, clipping the first and last bucket to the range', async () => {
    const t = await dataset()
    const weeks = (await dashboard(t.core, 'shipment-volumes', { ...RANGE, granularity: 'week' })).json().data
    expect(weeks).toMatchObject({ granularity: 'Week', total: 5 })
    expect(weeks.buckets).toEqual([
      { start: '2026-03-11', end: '2026-03-15', count: 5 },
      { start: '2026-03-16', end: '2026-03-20', count: 0 },
    ])
    const months = (
      await dashboard(t.core, 'dispatch-volumes', {
        from: '2026-02-15',
        to: '2026-04-30',
        granularity: 'Month',
      })
    ).json().data
    expect(months.buckets).toEqual([
      { start: '2026-02-15', end: '2026-02-28', count: 0 },
      { start: '2026-03-01', end: '2026-03-31', count: 5 },
      { start: '2026-04-01', end: '2026-04-30', count: 0 },
    ])
    const byNumber = await dashboard(t.core, 'dispatch-volumes', { ...RANGE, granularity: 2 })
    expect(byNumber.json().data.granularity).toBe('Month')
  })
})

describe('GET /api/v1/insights/dashboard/top-customers', () => {
  it('ranks customers by revenue with order count and share, as a bare array', async () => {
    const t = await dataset()
    await pollute(t.org.businessId)
    const response = await dashboard(t.core, 'top-customers', RANGE)
    expect(response.statusCode, response.body).toBe(200)
    const ranking = response.json()
    expect(Array.isArray(ranking)).toBe(true)
    expect(ranking.map((r: { customerName: string }) => r.customerName)).toEqual(['Bob', 'Alice', 'Carol'])
    expect(ranking[0]).toEqual({
      rank: 1,
      customerId: t.bob,
      customerCode: expect.stringMatching(/^CUS-/),
      customerName: 'Bob',
      orderCount: 1,
      revenue: 200,
      revenueShare: 0.5333,
      currency: 'USD',
    })
    expect(ranking[1]).toMatchObject({
      rank: 2,
      customerId: t.alice,
      orderCount: 3,
      revenue: 150,
      revenueShare: 0.4,
    })
    expect(ranking[2]).toMatchObject({
      rank: 3,
      customerId: t.carol,
      orderCount: 1,
      revenue: 25,
      revenueShare: 0.0667,
    })
    const topOne = (await dashboard(t.core, 'top-customers', { ...RANGE, top: 1 })).json()
    expect(topOne).toHaveLength(1)
    expect(
      (await dashboard(t.core, 'top-customers', { from: '2026-01-01', to: '2026-01-31' })).json(),
    ).toEqual([])
  })
})

describe('dashboard insights: parameters, credentials and permissions', () => {
  it('answers 400 naming each bad parameter', async () => {
    const { core } = await ownerSession(ctx)
    const cases: [string, Record<string, string | number>, string][] = [
      ['summary', { from: '2026-02-30' }, 'from'],
      ['summary', { to: 'yesterday' }, 'to'],
      ['summary', { from: '2026-03-20', to: '2026-03-19' }, 'from'],
      ['summary', { from: '1990-01-01', to: '2026-01-01' }, 'from'],
      ['summary', { from: '3000-01-01' }, 'from'],
      ['shipment-volumes', { granularity: 'Hour' }, 'granularity'],
      ['dispatch-volumes', { from: '2020-01-01', to: '2026-01-01' }, 'from'],
      ['shipment-volumes', { from: '2026-01-01T00:00:00Z' }, 'from'],
      ['top-customers', { top: 0 }, 'top'],
      ['top-customers', { top: 101 }, 'top'],
      ['top-customers', { top: 'ten' }, 'top'],
      ['top-customers', { to: '2026-13-01' }, 'to'],
    ]
    for (const [operation, query, field] of cases) {
      const response = await dashboard(core, operation, query)
      expect(response.statusCode, `${operation} ${JSON.stringify(query)}`).toBe(400)
      expect(fieldsOf(response), `${operation} ${JSON.stringify(query)}`).toEqual([field])
    }
    // Six years are fine by week or month.
    const weeks = await dashboard(core, 'dispatch-volumes', {
      from: '2020-01-01',
      to: '2026-01-01',
      granularity: 'Week',
    })
    expect(weeks.statusCode).toBe(200)
    expect(weeks.json().data.buckets).toHaveLength(314)
  })

  it('needs a credential and Insights View, with a bearer token or an API key', async () => {
    const t = await dataset()
    const operations = ['summary', 'shipment-volumes', 'dispatch-volumes', 'top-customers']
    const organizationId = await organizationIdOf(ctx, t.org.businessId)
    const withoutInsights = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Orders: 7, Shipments: 7, Customers: 7 }),
    })
    const withInsights = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Insights: 1 }),
    })
    const key = (scopes: Record<string, number>) =>
      createApiKey(ctx, t.signedIn.accessToken, t.org.businessId, { scopes: JSON.stringify(scopes) })
    const keyWithout = coreAs(ctx, { apiKey: await key({ Orders: 7, Shipments: 7, Customers: 7 }) })
    const keyWith = coreAs(ctx, { apiKey: await key({ Insights: 1 }) })
    const member = await addMember(ctx, t.org.businessId)
    for (const operation of operations) {
      const anonymous = await ctx.core.inject({ url: `/api/v1/insights/dashboard/${operation}` })
      expect(anonymous.statusCode).toBe(401)
      for (const refused of [withoutInsights.core, keyWithout]) {
        const response = await dashboard(refused, operation, RANGE)
        expect(response.statusCode, operation).toBe(403)
        expect(response.json().code).toBe('permission_denied')
      }
      for (const allowed of [withInsights.core, keyWith, member.core]) {
        expect((await dashboard(allowed, operation, RANGE)).statusCode, operation).toBe(200)
      }
    }
    expect((await dashboard(keyWith, 'summary', RANGE)).json().data.orders.revenue).toBe(375)
  })
})
