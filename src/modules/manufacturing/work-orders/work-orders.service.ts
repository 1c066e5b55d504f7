import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor } from '../../../db/tables.js'
import { validationFailed } from '../../../errors.js'
import { checkBusinessDate } from '../../../http/business-dates.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { bomNotFound } from '../boms/index.js'
import { decimalReasons } from '../decimals.js'
import { bomNotActive, workOrderNotEditable, workOrderNotFound } from './work-orders.errors.js'
import { toWorkOrder } from './work-orders.mapper.js'
import * as repository from './work-orders.repository.js'
import { WORK_ORDER_STATUSES, type WorkOrderRequest } from './work-orders.schemas.js'

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

/** The business's work orders, or (with `bomId`) those made from one of its BOMs: 404 for another's BOM. */
export async function listWorkOrders(
  database: Database,
  auth: BusinessAuth,
  query: ListQuery,
  bomId?: string,
) {
  const { schemaName: schema, businessId } = auth
  if (bomId !== undefined && !(await repository.bomExists(database.db, schema, businessId, bomId)))
    throw bomNotFound()
  const scoped =
    bomId === undefined
      ? repository.scopedWorkOrders(database.db, schema, businessId)
      : repository.workOrdersOfBom(database.db, schema, businessId, bomId)
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

function values(request: WorkOrderRequest): repository.WorkOrderValues {
  const reasons = decimalReasons({ quantity: request.quantity })
  const start = request.plannedStart ? new Date(request.plannedStart) : null
  const end = request.plannedEnd ? new Date(request.plannedEnd) : null
  checkBusinessDate(reasons, 'plannedStart', start)
  checkBusinessDate(reasons, 'plannedEnd', end)
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

export async function createWorkOrder(database: Database, auth: BusinessAuth, request: WorkOrderRequest) {
  const fields = values(request)
  return database.db.transaction().execute(async (trx) => {
    const bom = await repository.activeBom(trx, auth.schemaName, auth.businessId, request.bomId)
    if (!bom) throw bomNotActive()
    const id = newId()
    await repository.insertWorkOrder(trx, auth.schemaName, {
      ...fields,
      id,
      business_id: auth.businessId,
      code: await nextCode(trx, auth.schemaName, auth.businessId, 'work_order', 'WO'),
      bom_id: bom.id,
      product_id: bom.product_id,
    })
    return loadWorkOrder(trx, auth, id)
  })
}

/** Replaces a Draft work order; another status is a 409. Its BOM must be Active unless it keeps the one it has. */
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
    if (current.status !== 'Draft') throw workOrderNotEditable(current.status)
    const bom = await repository.activeBom(trx, auth.schemaName, auth.businessId, request.bomId)
    if (!bom && request.bomId !== current.bom_id) throw bomNotActive()
    await repository.updateWorkOrder(trx, auth.schemaName, id, {
      ...fields,
      bom_id: request.bomId,
      product_id: bom?.product_id ?? current.product_id,
    })
    return loadWorkOrder(trx, auth, id)
  })
}
