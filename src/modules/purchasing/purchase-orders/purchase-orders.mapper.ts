import type { PurchaseOrderLineRow, PurchaseOrderRow } from './purchase-orders.repository.js'
import type {
  PurchaseOrderLineResponse,
  PurchaseOrderResponse,
  PurchaseOrderStatus,
} from './purchase-orders.schemas.js'

const iso = (value: Date | null) => (value ? value.toISOString() : null)

/** Exact numeric text to a wire number; the subtraction is done in units of 0.0001 so it stays exact. */
const outstanding = (ordered: string, received: string) =>
  Math.max(0, Math.round(Number(ordered) * 10_000 - Number(received) * 10_000) / 10_000)

export function toLine(row: PurchaseOrderLineRow): PurchaseOrderLineResponse {
  return {
    id: row.id,
    lineNumber: row.line_number,
    productId: row.product_id,
    product: { id: row.product_id, sku: row.product_sku, name: row.product_name },
    quantity: Number(row.quantity),
    unitCost: Number(row.unit_cost),
    lineTotal: Number(row.line_total),
    receivedQuantity: Number(row.received_quantity),
    outstandingQuantity: outstanding(row.quantity, row.received_quantity),
  }
}

export function toPurchaseOrder(
  row: PurchaseOrderRow,
  lines: readonly PurchaseOrderLineRow[],
): PurchaseOrderResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    number: row.number,
    supplierId: row.supplier_id,
    supplier: { id: row.supplier_id, code: row.supplier_code, name: row.supplier_name },
    status: row.status as PurchaseOrderStatus,
    currency: row.currency,
    expectedDate: row.expected_date,
    isOverdue: row.is_overdue === true,
    notes: row.notes,
    lines: lines.map(toLine),
    total: Number(row.total),
    receivedTotal: Number(row.received_total),
    submittedAt: iso(row.submitted_at),
    receivedAt: iso(row.received_at),
    closedAt: iso(row.closed_at),
    cancelledAt: iso(row.cancelled_at),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

/** Pages of purchase orders with their lines, read in one extra query. */
export function withLines(rows: readonly PurchaseOrderRow[], lines: readonly PurchaseOrderLineRow[]) {
  const byOrder = new Map<string, PurchaseOrderLineRow[]>()
  for (const line of lines) {
    const list = byOrder.get(line.purchase_order_id) ?? []
    list.push(line)
    byOrder.set(line.purchase_order_id, list)
  }
  return rows.map((row) => toPurchaseOrder(row, byOrder.get(row.id) ?? []))
}
