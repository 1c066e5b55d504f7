import { randomUUID } from 'node:crypto'
import { schemaOf } from '../../../../test/fixtures.js'
import type { Core, TestContext } from '../../../../test/harness.js'

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
