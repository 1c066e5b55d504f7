import { sql } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'
import { invalidField, type Reason, validationFailed } from '../../../errors.js'
import { decodeEnum } from '../../../http/enums.js'
import { paged } from '../../../http/envelopes.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { shipmentNotFound } from '../shipments/shipments.service.js'
import { lockReservation, reserveDispatchCode } from './dispatch-codes.js'
import { addShipmentToPlan } from './plan-shipments.service.js'
import { planNotEditable, planNotFound } from './plans.errors.js'
import { toPlan, withShipments } from './plans.mapper.js'
import * as repository from './plans.repository.js'
import {
  type DispatchRequest,
  type DispatchResponse,
  type DispatchUpdateRequest,
  PLAN_STATUSES,
  type PlansQuery,
} from './plans.schemas.js'
import { planValues } from './plans.validation.js'

export async function loadPlan(db: Executor, auth: BusinessAuth, id: string): Promise<DispatchResponse> {
  const found = await repository.findPlanWithShipments(db, auth.schemaName, auth.businessId, id)
  if (!found) throw planNotFound()
  return toPlan(found.plan, found.shipments)
}

export const getPlan = (database: Database, auth: BusinessAuth, id: string) => loadPlan(database.db, auth, id)

/** A yyyy-mm-dd date (or the date part of a date-time); 400 naming the parameter otherwise. */
function dateParam(field: string, value: string | undefined, reasons: Reason[]) {
  if (value === undefined || value.trim() === '') return undefined
  const match = /^(\d{4}-\d{2}-\d{2})(T.*)?$/.exec(value.trim())
  if (!match || Number.isNaN(Date.parse(value.trim()))) {
    reasons.push({ field, message: 'must be a date, yyyy-mm-dd' })
    return undefined
  }
  return match[1]
}

/** GET /api/v1/plans: page/perPage paging, scheduled date range and status filter, newest day first. */
export async function listPlans(database: Database, auth: BusinessAuth, query: PlansQuery) {
  const reasons: Reason[] = []
  const from = dateParam('from', query.from, reasons)
  const to = dateParam('to', query.to, reasons)
  const status = query.status?.trim()
    ? decodeEnum({ names: PLAN_STATUSES, base: 0 }, query.status.trim())
    : undefined
  if (query.status?.trim() && !status)
    reasons.push({ field: 'status', message: `must be one of ${PLAN_STATUSES.join(', ')}` })
  if (from && to && from > to) reasons.push({ field: 'to', message: 'must not be before from' })
  if (reasons.length > 0) throw validationFailed(reasons)
  let scoped = repository.scopedPlans(database.db, auth.schemaName, auth.businessId)
  if (from) scoped = scoped.where('p.scheduled_date', '>=', from)
  if (to) scoped = scoped.where('p.scheduled_date', '<=', to)
  if (status) scoped = scoped.where('p.status', '=', status)
  const rows = await scoped
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('p.scheduled_date', 'desc')
    .orderBy('p.code', 'desc')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute()
  let total = rows[0]?.total ?? 0
  if (rows.length === 0 && query.page > 1) {
    const counted = await scoped.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirst()
    total = counted?.n ?? 0
  }
  const shipments = await repository.shipmentsOnPlans(
    database.db,
    auth.schemaName,
    rows.map((r) => r.id),
  )
  return paged('core', withShipments(rows, shipments), Number(total), {
    page: query.page,
    pageSize: query.perPage,
  })
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
    await repository.releaseShipments(trx, schema, id)
    await repository.deletePlan(trx, schema, id)
    return true
  })
}

export async function planOfShipment(database: Database, auth: BusinessAuth, shipmentId: string) {
  const shipment = await database.db
    .withSchema(auth.schemaName)
    .selectFrom('shipments')
    .select('delivery_plan_id')
    .where('id', '=', shipmentId)
    .where('business_id', '=', auth.businessId)
    .executeTakeFirst()
  if (!shipment) throw shipmentNotFound()
  if (!shipment.delivery_plan_id) throw planNotFound()
  return loadPlan(database.db, auth, shipment.delivery_plan_id)
}
