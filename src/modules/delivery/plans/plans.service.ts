import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'
import { invalidField, type Reason, validationFailed } from '../../../errors.js'
import { decodeEnum } from '../../../http/enums.js'
import { paged } from '../../../http/envelopes.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { FieldMap } from '../../../http/odata/index.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSetting } from '../../organisation/index.js'
import { shipmentNotFound } from '../shipments/index.js'
import { insertDispatchCode, lockReservation } from './dispatch-codes.repository.js'
import { planIdOfShipment, releaseShipments, shipmentsOnPlans } from './plan-shipments.repository.js'
import { addShipmentToPlan } from './plan-shipments.service.js'
import { planNotEditable, planNotFound } from './plans.errors.js'
import { toPlan, withShipments } from './plans.mapper.js'
import * as repository from './plans.repository.js'
import {
  DEFAULT_PLANS_PER_PAGE,
  type DispatchRequest,
  type DispatchResponse,
  type DispatchUpdateRequest,
  PLAN_STATUSES,
  type PlansQuery,
} from './plans.schemas.js'
import { businessDay, planValues } from './plans.validation.js'

export async function loadPlan(db: Executor, auth: BusinessAuth, id: string): Promise<DispatchResponse> {
  const found = await repository.findPlanWithShipments(db, auth.schemaName, auth.businessId, id)
  if (!found) throw planNotFound()
  return toPlan(found.plan, found.shipments)
}

export const getPlan = (database: Database, auth: BusinessAuth, id: string) => loadPlan(database.db, auth, id)

export const PLAN_FIELDS = {
  code: { column: 'p.code', type: 'string' },
  name: { column: 'p.name', type: 'string' },
  status: { column: 'p.status', type: 'enum', enumValues: PLAN_STATUSES },
  scheduledDate: { column: 'p.scheduled_date', type: 'date' },
  vehicleId: { column: 'p.vehicle_id', type: 'uuid' },
  driverName: { column: 'p.driver_name', type: 'string' },
  carrierId: { column: 'p.carrier_id', type: 'number' },
  distanceKm: { column: 'p.distance_km', type: 'number' },
  scheduledAt: { column: 'p.scheduled_at', type: 'datetime' },
  dispatchedAt: { column: 'p.dispatched_at', type: 'datetime' },
  completedAt: { column: 'p.completed_at', type: 'datetime' },
  cancelledAt: { column: 'p.cancelled_at', type: 'datetime' },
  autobatchedAt: { column: 'p.autobatched_at', type: 'datetime' },
  dateCreated: { column: 'p.date_created', type: 'datetime' },
  dateModified: { column: 'p.date_modified', type: 'datetime' },
} as const satisfies FieldMap

const PLAN_LIST: ListSpec = {
  fields: PLAN_FIELDS,
  search: ['p.code', 'p.name', 'p.driver_name', 'p.notes'],
  defaultOrder: [
    { column: 'p.scheduled_date', direction: 'desc' },
    { column: 'p.code', direction: 'desc' },
  ],
  tiebreak: 'p.id',
}

/** perPage (the contract's name) or PageSize (the standard one): one setting; two different values are a 400. */
function pageSizeOf(query: PlansQuery, reasons: Reason[]) {
  const { perPage, PageSize } = query
  if (perPage !== undefined && PageSize !== undefined && perPage !== PageSize) {
    const message = `perPage is ${perPage} and PageSize is ${PageSize}: they are one setting, give one of them (or the same value)`
    reasons.push({ field: 'perPage', message }, { field: 'PageSize', message })
  }
  return perPage ?? PageSize ?? DEFAULT_PLANS_PER_PAGE
}

/**
 * GET /api/v1/plans: the contract's page/perPage, scheduled day range and status, with the
 * standard list parameters as well ($filter, $orderby, $search; Page and PageSize), newest day
 * first by default. A date-time in from/to is read as its day in the business's time zone.
 */
export async function listPlans(database: Database, auth: BusinessAuth, query: PlansQuery) {
  const reasons: Reason[] = []
  const pageSize = pageSizeOf(query, reasons)
  const status = query.status?.trim()
    ? decodeEnum({ names: PLAN_STATUSES, base: 0 }, query.status.trim())
    : undefined
  if (query.status?.trim() && !status)
    reasons.push({ field: 'status', message: `must be one of ${PLAN_STATUSES.join(', ')}` })
  if (reasons.length > 0) throw validationFailed(reasons)
  const [from, to] = await Promise.all(
    [query.from, query.to].map((value) => (value ? businessDay(database.db, auth, value) : undefined)),
  )
  if (from && to && from > to) throw invalidField('to', 'must not be before from')
  const scoped = repository.filteredPlans(database.db, auth.schemaName, auth.businessId, { from, to, status })
  const { rows, total, page } = await runList(
    scoped,
    { ...query, Page: query.page, PageSize: pageSize },
    PLAN_LIST,
  )
  const shipments = await shipmentsOnPlans(
    database.db,
    auth.schemaName,
    rows.map((r) => r.id),
  )
  return paged('core', withShipments(rows, shipments), total, page)
}

/**
 * Reserves the next dispatch code of the business's day (dispatch-codes.repository.ts), prefixed
 * by the `dispatch.codePrefix` setting.
 */
async function reserveDispatchCode(db: Executor, schema: string, businessId: string) {
  const prefix = await readSetting(db, schema, businessId, 'dispatch.codePrefix')
  return insertDispatchCode(db, schema, businessId, prefix, new Date())
}

export async function reserveCode(database: Database, auth: BusinessAuth) {
  return { code: await reserveDispatchCode(database.db, auth.schemaName, auth.businessId) }
}

/**
 * SaveDispatch: creates a Draft plan under a reserved code. The reservation row is locked first,
 * so two saves of one code run one after the other and the second returns the plan the first
 * made (idempotent); an unknown code is a 400. Without a code, one is reserved here.
 */
export async function saveDispatch(database: Database, auth: BusinessAuth, request: DispatchRequest) {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    let code = request.code?.trim()
    if (code) {
      if (!(await lockReservation(trx, schema, businessId, code)))
        throw invalidField('code', 'must be a code reserved with GET /api/v1/plans/code')
      const existing = await repository.findPlanByCode(trx, schema, businessId, code)
      if (existing) return loadPlan(trx, auth, existing.id)
    } else {
      code = await reserveDispatchCode(trx, schema, businessId)
    }
    const values = await planValues(trx, auth, request)
    const id = newId()
    await repository.insertPlan(trx, schema, { ...values, id, business_id: businessId, code })
    const shipmentIds = [...new Set(request.shipmentIds ?? [])]
    for (const [index, shipmentId] of shipmentIds.entries()) {
      await addShipmentToPlan(trx, auth, id, shipmentId, `shipmentIds.${index}`)
    }
    return loadPlan(trx, auth, id)
  })
}

export async function updatePlan(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: DispatchUpdateRequest,
) {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const plan = await repository.lockPlan(trx, schema, businessId, id)
    if (!plan) throw planNotFound()
    if (plan.status !== 'Draft' && plan.status !== 'Scheduled') throw planNotEditable(plan.status)
    await repository.updatePlan(trx, schema, id, await planValues(trx, auth, request))
    return loadPlan(trx, auth, id)
  })
}

/** Deletes a plan that has not been dispatched (or was cancelled); its shipments go back to unassigned. */
export async function deletePlan(database: Database, auth: BusinessAuth, id: string) {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const plan = await repository.lockPlan(trx, schema, businessId, id)
    if (!plan) throw planNotFound()
    if (plan.status === 'Dispatched' || plan.status === 'Completed') throw planNotEditable(plan.status)
    await releaseShipments(trx, schema, id)
    await repository.deletePlan(trx, schema, id)
    return true
  })
}

export async function planOfShipment(database: Database, auth: BusinessAuth, shipmentId: string) {
  const planId = await planIdOfShipment(database.db, auth.schemaName, auth.businessId, shipmentId)
  if (planId === undefined) throw shipmentNotFound()
  if (!planId) throw planNotFound()
  return loadPlan(database.db, auth, planId)
}
