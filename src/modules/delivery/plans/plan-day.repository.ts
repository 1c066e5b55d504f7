import { sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'

/** What planning reads of a shipment. */
export const STOP_COLUMNS = [
  'id',
  'code',
  'weight',
  'volume',
  'delivery_address',
  'pickup_address',
  'delivery_windows',
  'service_minutes',
] as const

/** The business's time zone and address (where its vehicles start by default). */
export function dayBusiness(trx: Transaction<Tables>, schema: string, businessId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('businesses')
    .select(['timezone', 'address'])
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
}

/** The business's Pending, unassigned shipments of a day (its own day, in its time zone), locked until commit. */
export function dayShipments(trx: Transaction<Tables>, schema: string, businessId: string, day: string) {
  const timeZone = sql`(select timezone from ${sql.table(`${schema}.businesses`)} where id = ${businessId})`
  return trx
    .withSchema(schema)
    .selectFrom('shipments')
    .select(STOP_COLUMNS)
    .where('business_id', '=', businessId)
    .where('delivery_plan_id', 'is', null)
    .where('status', '=', 'Pending')
    .where('scheduled_date', '>=', sql<Date>`${day}::date::timestamp at time zone ${timeZone}`)
    .where('scheduled_date', '<', sql<Date>`(${day}::date + 1)::timestamp at time zone ${timeZone}`)
    .orderBy('code')
    .forUpdate()
    .execute()
}

/** What planning reads of a vehicle. */
export const VEHICLE_COLUMNS = [
  'id',
  'registration',
  'max_weight',
  'max_volume',
  'shift_start',
  'shift_end',
  'start_location',
  'end_location',
  'breaks',
] as const

/** The business's active vehicles (those named, when named), by registration. */
export function dayVehicles(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  ids: readonly string[] | null,
) {
  let query = trx
    .withSchema(schema)
    .selectFrom('vehicles')
    .select(VEHICLE_COLUMNS)
    .where('business_id', '=', businessId)
    .where('active', '=', true)
  if (ids) query = query.where('id', 'in', ids)
  return query.orderBy('registration').execute()
}

/** The vehicle's first Draft or Scheduled plan of the day, locked, to be filled rather than a new one made. */
export function openPlanOf(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  vehicleId: string,
  day: string,
) {
  return trx
    .withSchema(schema)
    .selectFrom('delivery_plans')
    .select(['id', 'code'])
    .where('business_id', '=', businessId)
    .where('vehicle_id', '=', vehicleId)
    .where('status', 'in', ['Draft', 'Scheduled'])
    .where('scheduled_date', '=', day)
    .orderBy('code')
    .forUpdate()
    .executeTakeFirst()
}

/** The stops already on the vehicles' open (Draft or Scheduled) plans of the day, in stop order, locked. */
export function openPlanStops(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  day: string,
  vehicleIds: readonly string[],
) {
  return trx
    .withSchema(schema)
    .selectFrom('shipments as s')
    .innerJoin('delivery_plans as p', 'p.id', 's.delivery_plan_id')
    .select([...STOP_COLUMNS.map((c) => `s.${c}` as const), 'p.vehicle_id'])
    .where('p.business_id', '=', businessId)
    .where('p.status', 'in', ['Draft', 'Scheduled'])
    .where('p.scheduled_date', '=', day)
    .where(
      'p.vehicle_id',
      'in',
      vehicleIds.length > 0 ? vehicleIds : ['00000000-0000-0000-0000-000000000000'],
    )
    .orderBy('p.code')
    .orderBy('s.stop_sequence')
    .orderBy('s.code')
    .forUpdate()
    .execute()
}
