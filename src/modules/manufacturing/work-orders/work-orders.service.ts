import { sql } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor } from '../../../db/tables.js'
import { conflict, invalidField, invalidTransition, notFound, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { bomNotFound } from '../boms/boms.errors.js'
import { decimalReasons, iso, num, round } from '../decimals.js'
import * as repository from './work-orders.repository.js'
import {
  WORK_ORDER_STATUSES,
  type WorkOrderRequest,
  type WorkOrderResponse,
  type WorkOrderStatus,
} from './work-orders.schemas.js'

export const workOrderNotFound = () =>
  notFound('work_order_not_found', 'No work order of this business has this id.')
export const invalidWorkOrderTransition = (
  from: WorkOrderStatus,
  to: WorkOrderStatus,
  allowedFrom: readonly WorkOrderStatus[],
) => invalidTransition('A work order', from, to, allowedFrom)

export function toWorkOrder(row: repository.WorkOrderRow): WorkOrderResponse {
  const produced = num(row.quantity_produced)
  const actual = num(row.actual_total_cost)
  const standard = num(row.standard_unit_cost)
  return {
    id: row.id,
    businessId: row.business_id,
    code: row.code,
    bomId: row.bom_id,
    bom: { id: row.bom_id, code: row.bom_code, revision: row.bom_revision },
    productId: row.product_id,
    product: { id: row.product_id, sku: row.product_sku, name: row.product_name },
    quantity: Number(row.quantity),
    status: row.status as WorkOrderStatus,
    plannedStart: iso(row.planned_start),
    plannedEnd: iso(row.planned_end),
    notes: row.notes,
    standardUnitCost: standard === null ? null : round(standard),
    standardTotalCost: num(row.standard_total_cost),
    actualUnitCost: num(row.actual_unit_cost) === null ? null : round(Number(row.actual_unit_cost)),
    actualTotalCost: actual,
    costVariance:
      actual !== null && standard !== null && produced !== null ? round(actual - standard * produced) : null,
    quantityProduced: produced,
    effectiveDate: iso(row.effective_date),
    releasedAt: iso(row.released_at),
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
    cancelledAt: iso(row.cancelled_at),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

const LIST: ListSpec = {
  fields: {
    code: { column: 'w.code', type: 'string' },
    status: { column: 'w.status', type: 'enum', enumValues: WORK_ORDER_STATUSES },
    bomId: { column: 'w.bom_id', type: 'uuid' },
    productId: { column: 'w.product_id', type: 'uuid' },
    quantity: { column: 'w.quantity', type: 'number' },
    plannedStart: { column: 'w.planned_start', type: 'datetime' },
    plannedEnd: { column: 'w.planned_end', type: 'datetime' },
    completedAt: { column: 'w.completed_at', type: 'datetime' },
    dateCreated: { column: 'w.date_created', type: 'datetime' },
    dateModified: { column: 'w.date_modified', type: 'datetime' },
  },
  search: ['w.code', 'w.notes', 'p.sku', 'p.name'],
  defaultOrder: [{ column: 'w.date_created', direction: 'desc' }],
  tiebreak: 'w.id',
}

export async function listWorkOrders(
  database: Database,
  auth: BusinessAuth,
  query: ListQuery,
  bomId?: string,
) {
  let scoped = repository.scopedWorkOrders(database.db, auth.schemaName, auth.businessId)
  if (bomId !== undefined) {
    const bom = await database.db
      .withSchema(auth.schemaName)
      .selectFrom('boms')
      .select('id')
      .where('id', '=', bomId)
      .where('business_id', '=', auth.businessId)
      .executeTakeFirst()
    if (!bom) throw bomNotFound()
    scoped = scoped.where('w.bom_id', '=', bomId)
  }
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toWorkOrder), total, page)
}

export async function loadWorkOrder(db: Executor, auth: BusinessAuth, id: string) {
  const row = await repository.findWorkOrder(db, auth.schemaName, auth.businessId, id)
  if (!row) throw workOrderNotFound()
  return toWorkOrder(row)
}

export const getWorkOrder = (database: Database, auth: BusinessAuth, id: string) =>
  loadWorkOrder(database.db, auth, id)

function values(request: WorkOrderRequest) {
  const reasons = decimalReasons({ quantity: request.quantity })
  const start = request.plannedStart ? new Date(request.plannedStart) : null
  const end = request.plannedEnd ? new Date(request.plannedEnd) : null
  if (start && end && end < start)
    reasons.push({ field: 'plannedEnd', message: 'must not be before plannedStart' })
  if (reasons.length > 0) throw validationFailed(reasons)
  return {
    quantity: request.quantity,
    planned_start: start,
    planned_end: end,
    notes: request.notes?.trim() || null,
  }
}

const bomNotActive = () => invalidField('bomId', 'must be an Active BOM of this business')

export async function createWorkOrder(database: Database, auth: BusinessAuth, request: WorkOrderRequest) {
  const fields = values(request)
  return database.db.transaction().execute(async (trx) => {
    const bom = await repository.activeBom(trx, auth.schemaName, auth.businessId, request.bomId)
    if (!bom) throw bomNotActive()
    const id = newId()
    await trx
      .withSchema(auth.schemaName)
      .insertInto('work_orders')
      .values({
        ...fields,
        id,
        business_id: auth.businessId,
        code: await nextCode(trx, auth.schemaName, auth.businessId, 'work_order', 'WO'),
        bom_id: bom.id,
        product_id: bom.product_id,
      })
      .execute()
    return loadWorkOrder(trx, auth, id)
  })
}

export async function updateWorkOrder(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: WorkOrderRequest,
) {
  const fields = values(request)
  return database.db.transaction().execute(async (trx) => {
    const current = await repository.lockWorkOrder(trx, auth.schemaName, auth.businessId, id)
    if (!current) throw workOrderNotFound()
    if (current.status !== 'Draft')
      throw conflict(
        'work_order_not_editable',
        `A ${current.status} work order cannot be changed; only a Draft can.`,
      )
    const bom = await repository.activeBom(trx, auth.schemaName, auth.businessId, request.bomId)
    if (!bom && request.bomId !== current.bom_id) throw bomNotActive()
    await trx
      .withSchema(auth.schemaName)
      .updateTable('work_orders')
      .set({
        ...fields,
        bom_id: request.bomId,
        product_id: bom?.product_id ?? current.product_id,
        date_modified: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .execute()
    return loadWorkOrder(trx, auth, id)
  })
}
