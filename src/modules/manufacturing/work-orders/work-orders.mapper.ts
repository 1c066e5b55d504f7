import { iso, num, round } from '../decimals.js'
import type { WorkOrderRow } from './work-orders.repository.js'
import type { WorkOrderResponse, WorkOrderStatus } from './work-orders.schemas.js'

export function toWorkOrder(row: WorkOrderRow): WorkOrderResponse {
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
