import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { VEHICLE_COLUMNS } from './plan-day.repository.js'

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
