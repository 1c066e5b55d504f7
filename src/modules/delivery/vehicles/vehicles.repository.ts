import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

const COLUMNS = [
  'id',
  'business_id',
  'registration',
  'name',
  'max_weight',
  'max_volume',
  'active',
  'date_created',
  'date_modified',
  'shift_start',
  'shift_end',
  'start_location',
  'end_location',
  'breaks',
] as const

export function scopedVehicles(db: Executor, schema: string, businessId: string) {
  return db.withSchema(schema).selectFrom('vehicles').where('business_id', '=', businessId).select(COLUMNS)
}

export type VehicleRow = NonNullable<Awaited<ReturnType<typeof findVehicle>>>

export function findVehicle(db: Executor, schema: string, businessId: string, id: string) {
  return scopedVehicles(db, schema, businessId).where('id', '=', id).executeTakeFirst()
}

/** Whether the business has this vehicle. */
export async function vehicleExists(db: Executor, schema: string, businessId: string, id: string) {
  const vehicle = await db
    .withSchema(schema)
    .selectFrom('vehicles')
    .select('id')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
  return vehicle !== undefined
}

/** The weight and volume a vehicle can carry (null: no limit), for a plan that names it. */
export function vehicleCapacity(db: Executor, schema: string, id: string) {
  return db
    .withSchema(schema)
    .selectFrom('vehicles')
    .select(['max_weight', 'max_volume'])
    .where('id', '=', id)
    .executeTakeFirst()
}

export interface VehicleValues {
  registration: string
  name: string
  max_weight: number | null
  max_volume: number | null
  active: boolean
  shift_start: string | null
  shift_end: string | null
  start_location: string | null
  end_location: string | null
  breaks: string
}

export function insertVehicle(
  db: Executor,
  schema: string,
  values: VehicleValues & { id: string; business_id: string },
) {
  return db
    .withSchema(schema)
    .insertInto('vehicles')
    .values(values)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

export function updateVehicle(
  db: Executor,
  schema: string,
  businessId: string,
  id: string,
  values: VehicleValues,
) {
  return db
    .withSchema(schema)
    .updateTable('vehicles')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning(COLUMNS)
    .executeTakeFirst()
}

/** Locks the vehicle, then tells whether a plan still in play (not Completed/Cancelled) uses it. */
export async function lockForDelete(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  id: string,
) {
  const vehicle = await trx
    .withSchema(schema)
    .selectFrom('vehicles')
    .select('id')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
  if (!vehicle) return undefined
  const plan = await trx
    .withSchema(schema)
    .selectFrom('delivery_plans')
    .select('code')
    .where('vehicle_id', '=', id)
    .where('status', 'not in', ['Completed', 'Cancelled'])
    .executeTakeFirst()
  return { inUseBy: plan?.code ?? null }
}

export async function deleteVehicle(trx: Transaction<Tables>, schema: string, id: string) {
  // Finished plans keep their history: they lose the link, not the plan.
  await trx
    .withSchema(schema)
    .updateTable('delivery_plans')
    .set({ vehicle_id: null })
    .where('vehicle_id', '=', id)
    .execute()
  await trx.withSchema(schema).deleteFrom('vehicles').where('id', '=', id).execute()
}
