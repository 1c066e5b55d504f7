import type { Database } from '../../../db/database.js'
import { isUniqueViolation, newId } from '../../../db/ids.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { checkShift, storedBreaks, storedLocation } from './vehicle-shifts.js'
import { registrationTaken, vehicleInUse, vehicleNotFound } from './vehicles.errors.js'
import * as repository from './vehicles.repository.js'
import type { VehicleRequest, VehicleResponse } from './vehicles.schemas.js'

const LIST: ListSpec = {
  fields: {
    registration: { column: 'registration', type: 'string' },
    name: { column: 'name', type: 'string' },
    active: { column: 'active', type: 'boolean' },
    maxWeight: { column: 'max_weight', type: 'number' },
    maxVolume: { column: 'max_volume', type: 'number' },
    dateCreated: { column: 'date_created', type: 'datetime' },
    dateModified: { column: 'date_modified', type: 'datetime' },
  },
  search: ['registration', 'name'],
  defaultOrder: [{ column: 'date_created', direction: 'desc' }],
  tiebreak: 'id',
}

const decimal = (value: string | null) => (value === null ? null : Number(value))

export function toVehicle(row: repository.VehicleRow): VehicleResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    registration: row.registration,
    name: row.name,
    maxWeight: decimal(row.max_weight),
    maxVolume: decimal(row.max_volume),
    active: row.active,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
    shiftStart: row.shift_start,
    shiftEnd: row.shift_end,
    startLocation: storedLocation(row.start_location),
    endLocation: storedLocation(row.end_location),
    breaks: storedBreaks(row.breaks),
  }
}

function values(request: VehicleRequest): repository.VehicleValues {
  const registration = request.registration.trim().toUpperCase()
  if (!registration) throw invalidField('registration', 'must not be blank')
  const name = request.name.trim()
  if (!name) throw invalidField('name', 'must not be blank')
  checkShift(request)
  const located = (l: VehicleRequest['startLocation']) =>
    l ? JSON.stringify({ latitude: l.latitude, longitude: l.longitude }) : null
  return {
    registration,
    name,
    max_weight: request.maxWeight ?? null,
    max_volume: request.maxVolume ?? null,
    active: request.active ?? true,
    shift_start: request.shiftStart ?? null,
    shift_end: request.shiftEnd ?? null,
    start_location: located(request.startLocation),
    end_location: located(request.endLocation),
    breaks: JSON.stringify(
      (request.breaks ?? []).map((b) => ({
        earliest: b.earliest,
        latest: b.latest,
        durationMinutes: b.durationMinutes,
      })),
    ),
  }
}

export async function listVehicles(database: Database, auth: BusinessAuth, query: ListQuery) {
  const { rows, total, page } = await runList(
    repository.scopedVehicles(database.db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  return paged('core', rows.map(toVehicle), total, page)
}

export async function getVehicle(database: Database, auth: BusinessAuth, id: string) {
  const row = await repository.findVehicle(database.db, auth.schemaName, auth.businessId, id)
  if (!row) throw vehicleNotFound()
  return toVehicle(row)
}

/** The unique index decides a registration race; the loser gets a 409, never a 500. */
async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw registrationTaken()
    throw error
  }
}

export async function createVehicle(database: Database, auth: BusinessAuth, request: VehicleRequest) {
  const row = await uniquely(() =>
    repository.insertVehicle(database.db, auth.schemaName, {
      ...values(request),
      id: newId(),
      business_id: auth.businessId,
    }),
  )
  return toVehicle(row)
}

export async function updateVehicle(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: VehicleRequest,
) {
  const row = await uniquely(() =>
    repository.updateVehicle(database.db, auth.schemaName, auth.businessId, id, values(request)),
  )
  if (!row) throw vehicleNotFound()
  return toVehicle(row)
}

export async function deleteVehicle(database: Database, auth: BusinessAuth, id: string) {
  return database.db.transaction().execute(async (trx) => {
    const state = await repository.lockForDelete(trx, auth.schemaName, auth.businessId, id)
    if (!state) throw vehicleNotFound()
    if (state.inUseBy) throw vehicleInUse(state.inUseBy)
    await repository.deleteVehicle(trx, auth.schemaName, id)
    return true
  })
}
