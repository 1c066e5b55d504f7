import { describe, expect, it } from 'vitest'
import { insertCustomer } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { line, orderWithStatus } from '../../sales/orders/orders.fixtures.js'
import {
  addDays,
  dashboard,
  dashboardDataset,
  insertShipmentAt,
  pollute,
  RANGE,
  setTimeZone,
  todayIn,
} from './dashboard.fixtures.js'

const ctx = useTestContext()

const zeros = (names: string[]) => Object.fromEntries(names.map((n) => [n, 0]))

describe('GET /api/v1/insights/dashboard/summary', () => {
  it('computes orders, revenue, shipments, on-time rate, plans and the change against the previous period', async () => {
    const t = await dashboardDataset(ctx)
    const { branch } = await pollute(ctx, t.org.businessId)
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
        byStatus: { Draft: 1, Confirmed: 4, Fulfilled: 1, Cancelled: 1, PartiallyFulfilled: 0 },
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
      transfers: {
        outgoingInTransit: 0,
        outgoingValueInTransit: 0,
        incomingInTransit: 0,
        incomingValueInTransit: 0,
      },
      // Orders of services and shipments without lines: nothing to fill (dashboard.fulfilment.test.ts counts them).
      fulfilment: {
        orderedUnits: 0,
        filledUnits: 0,
        fillRate: null,
        otifRated: 0,
        otifOrders: 0,
        otifRate: null,
        shippedRevenue: 0,
        backorderedOrders: 0,
        backorderedLines: 0,
        backorderedUnits: 0,
        returnsCredited: 0,
        returnedValue: 0,
      },
      changes: {
        shippedRevenue: { current: 0, previous: 0, change: 0, changePercent: null },
        orderCount: { current: 5, previous: 2, change: 3, changePercent: 150 },
        revenue: { current: 375, previous: 70, change: 305, changePercent: 435.71 },
        shipmentCount: { current: 5, previous: 2, change: 3, changePercent: 150 },
        deliveredCount: { current: 3, previous: 1, change: 2, changePercent: 200 },
        planCount: { current: 4, previous: 1, change: 3, changePercent: 300 },
        onTimeRate: { current: 0.5, previous: 1, change: -0.5 },
      },
    })
    // Another business of the same organisation (same schema) sees only its own rows.
    const asBranch = coreAs(ctx, { accessToken: t.signedIn.accessToken, businessId: branch })
    expect((await dashboard(asBranch, 'summary', RANGE)).json().data).toMatchObject({
      orders: { count: 0, revenue: 0 },
      shipments: { count: 1, delivered: 1, deliveredOnTime: 0, onTimeRate: 0 },
      plans: { count: 1 },
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
    const t = await dashboardDataset(ctx)
    await pollute(ctx, t.org.businessId)
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
    const t = await dashboardDataset(ctx)
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
    const t = await dashboardDataset(ctx)
    await pollute(ctx, t.org.businessId)
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
