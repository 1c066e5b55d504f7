import { sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { STOP_COLUMNS, VEHICLE_COLUMNS } from './plan-day.repository.js'

/** The plan's vehicle as planning reads it (active or not: the plan names it). */
export function planVehicle(trx: Transaction<Tables>, schema: string, businessId: string, id: string) {
  return trx
    .withSchema(schema)
    .selectFrom('vehicles')
    .select(VEHICLE_COLUMNS)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/**
 * The plan's stops in stop order (then code), locked until commit, with what re-optimising needs:
 * status, planned times, when it was delivered or failed, and the latest report of its stop on this
 * plan (Arrived, Delivered or Failed) with when it happened.
 */
export function planStops(trx: Transaction<Tables>, schema: string, businessId: string, planId: string) {
  const latest = (column: 'kind' | 'occurred_at') =>
    sql`(select o.${sql.ref(column)} from ${sql.table(`${schema}.stop_operations`)} as o
         where o.shipment_id = s.id and o.delivery_plan_id = s.delivery_plan_id
         order by o.occurred_at desc, o.date_created desc limit 1)`
  return trx
    .withSchema(schema)
    .selectFrom('shipments as s')
    .select(STOP_COLUMNS.map((c) => `s.${c}` as const))
    .select([
      's.status',
      's.stop_sequence',
      's.planned_arrival',
      's.planned_departure',
      's.delivered_at',
      's.failed_at',
    ])
    .select(sql<string | null>`${latest('kind')}`.as('reported'))
    .select(sql<Date | null>`${latest('occurred_at')}`.as('reported_at'))
    .where('s.business_id', '=', businessId)
    .where('s.delivery_plan_id', '=', planId)
    .orderBy(sql`s.stop_sequence nulls last`)
    .orderBy('s.code')
    .forUpdate()
    .execute()
}
export type PlanStopRow = Awaited<ReturnType<typeof planStops>>[number]
