import { type Kysely, sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress } from '../../../http/address.js'
import { isDateOnly } from '../../../http/schema-helpers.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { carrierById } from '../carriers/catalogue.js'
import type { PlanValues } from './plans.repository.js'
import type { DispatchUpdateRequest } from './plans.schemas.js'

/**
 * A plan's day from a date (as it is) or a date-time (its instant's calendar day in the business's
 * time zone, as the dispatch codes and today's plans count days). The value has passed the schema.
 */
export async function businessDay(
  db: Kysely<Tables> | Transaction<Tables>,
  auth: Pick<BusinessAuth, 'schemaName' | 'businessId'>,
  value: string,
): Promise<string> {
  if (isDateOnly(value)) return value
  const { rows } = await sql<{ day: string }>`
    SELECT to_char(${value}::timestamptz AT TIME ZONE b.timezone, 'YYYY-MM-DD') AS day
    FROM ${sql.table(`${auth.schemaName}.businesses`)} AS b WHERE b.id = ${auth.businessId}`.execute(db)
  return rows[0]?.day ?? value.slice(0, 10)
}

/** Checks the plan's references against this business (400 naming each bad field) and returns the values to store. */
export async function planValues(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  request: DispatchUpdateRequest,
): Promise<PlanValues> {
  const db = trx.withSchema(auth.schemaName)
  const reasons: Reason[] = []
  if (request.vehicleId) {
    const vehicle = await db
      .selectFrom('vehicles')
      .select('id')
      .where('id', '=', request.vehicleId)
      .where('business_id', '=', auth.businessId)
      .executeTakeFirst()
    if (!vehicle) reasons.push({ field: 'vehicleId', message: 'must be a vehicle of this business' })
  }
  const zoneIds = [...new Set(request.deliveryZoneIds ?? [])]
  if (zoneIds.length > 0) {
    const found = await db
      .selectFrom('delivery_zones')
      .select('id')
      .where('id', 'in', zoneIds)
      .where('business_id', '=', auth.businessId)
      .execute()
    const known = new Set(found.map((z) => z.id))
    zoneIds.forEach((id, i) => {
      if (!known.has(id))
        reasons.push({ field: `deliveryZoneIds.${i}`, message: 'must be a delivery zone of this business' })
    })
  }
  if (request.carrierId != null && !carrierById(request.carrierId))
    reasons.push({ field: 'carrierId', message: 'must be a carrier catalogue id (GET /api/carriers)' })
  if (reasons.length > 0) throw validationFailed(reasons)
  const depot = normaliseAddress(request.depot)
  return {
    name: request.name?.trim() || null,
    scheduled_date: await businessDay(trx, auth, request.scheduledDate),
    vehicle_id: request.vehicleId ?? null,
    driver_name: request.driverName?.trim() || null,
    carrier_id: request.carrierId ?? null,
    delivery_zone_ids: zoneIds,
    depot: depot ? JSON.stringify(depot) : null,
    notes: request.notes?.trim() || null,
  }
}
