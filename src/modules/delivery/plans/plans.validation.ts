import type { Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress } from '../../../http/address.js'
import { checkBusinessDate } from '../../../http/business-dates.js'
import { isDateOnly } from '../../../http/schema-helpers.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { carrierById } from '../carriers/index.js'
import { vehicleExists } from '../vehicles/index.js'
import { existingZoneIds } from '../zones/index.js'
import { businessDayOf, type PlanValues } from './plans.repository.js'
import type { DispatchUpdateRequest } from './plans.schemas.js'

/**
 * A plan's day from a date (as it is) or a date-time (its instant's calendar day in the business's
 * time zone, as the dispatch codes and today's plans count days). The value has passed the schema.
 */
export async function businessDay(
  db: Executor,
  auth: Pick<BusinessAuth, 'schemaName' | 'businessId'>,
  value: string,
): Promise<string> {
  if (isDateOnly(value)) return value
  return (await businessDayOf(db, auth.schemaName, auth.businessId, value)) ?? value.slice(0, 10)
}

/** Checks the plan's references against this business (400 naming each bad field) and returns the values to store. */
export async function planValues(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  request: DispatchUpdateRequest,
): Promise<PlanValues> {
  const { schemaName: schema, businessId } = auth
  const reasons: Reason[] = []
  if (request.vehicleId && !(await vehicleExists(trx, schema, businessId, request.vehicleId)))
    reasons.push({ field: 'vehicleId', message: 'must be a vehicle of this business' })
  const zoneIds = [...new Set(request.deliveryZoneIds ?? [])]
  if (zoneIds.length > 0) {
    const known = await existingZoneIds(trx, schema, businessId, zoneIds)
    zoneIds.forEach((id, i) => {
      if (!known.has(id))
        reasons.push({ field: `deliveryZoneIds.${i}`, message: 'must be a delivery zone of this business' })
    })
  }
  if (request.carrierId != null && !carrierById(request.carrierId))
    reasons.push({ field: 'carrierId', message: 'must be a carrier catalogue id (GET /api/carriers)' })
  checkBusinessDate(reasons, 'scheduledDate', request.scheduledDate)
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
