import { randomUUID } from 'node:crypto'
import { addBusiness, insertCustomer, schemaOf } from '../../../../test/fixtures.js'
import { type Core, ownerSession, type TestContext } from '../../../../test/harness.js'
import { line, orderWithStatus } from '../../sales/orders/orders.fixtures.js'

/**
 * Rows for the dashboard tests at known instants. Shipments and plans are inserted straight into
 * the tenant tables (their own modules are tested elsewhere and stamp dates with now()).
 */

export async function setTimeZone(ctx: TestContext, businessId: string, timezone: string) {
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .updateTable('businesses')
    .set({ timezone })
    .where('id', '=', businessId)
    .execute()
}

export interface ShipmentAt {
  status: string
  created: string
  scheduled?: string
  delivered?: string
}

export async function insertShipmentAt(ctx: TestContext, businessId: string, shipment: ShipmentAt) {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('shipments')
    .values({
      id,
      business_id: businessId,
      code: `SHP-${id.slice(0, 8)}`,
      status: shipment.status,
      scheduled_date: shipment.scheduled ? new Date(shipment.scheduled) : null,
      delivered_at: shipment.delivered ? new Date(shipment.delivered) : null,
      date_created: new Date(shipment.created),
    })
    .execute()
  return id
}

export async function insertPlanOn(
  ctx: TestContext,
  businessId: string,
  scheduledDate: string,
  status: string,
) {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('delivery_plans')
    .values({
      id,
      business_id: businessId,
      code: `DSP-${id.slice(0, 8)}`,
      status,
      scheduled_date: scheduledDate,
    })
    .execute()
  return id
}

const BASE = '/api/v1/insights/dashboard'

export const dashboard = (core: Core, operation: string, query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString()
  return core({ url: `${BASE}/${operation}${search ? `?${search}` : ''}` })
}

/** Today in a time zone, yyyy-mm-dd. */
export const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  )

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The range the tests ask for, and the previous period of equal length. */
export const RANGE = { from: '2026-03-11', to: '2026-03-20' }

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
export async function dashboardDataset(ctx: TestContext) {
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
export async function pollute(ctx: TestContext, businessId: string) {
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
  return { branch, other }
}
