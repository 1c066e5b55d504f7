import { readAddress } from '../../../http/address.js'
import type { OrderLineRow, OrderRow } from './orders.repository.js'
import type { OrderLineResponse, OrderResponse, OrderStatus } from './orders.schemas.js'

const iso = (value: Date | null) => (value ? value.toISOString() : null)

export function toLine(row: OrderLineRow): OrderLineResponse {
  return {
    id: row.id,
    lineNumber: row.line_number,
    productId: row.product_id,
    description: row.description,
    quantity: Number(row.quantity),
    unitPrice: Number(row.unit_price),
    lineTotal: Number(row.line_total),
  }
}

export function toOrder(row: OrderRow, lines: readonly OrderLineRow[]): OrderResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    code: row.code,
    customerId: row.customer_id,
    customer: { id: row.customer_id, name: row.customer_name },
    status: row.status as OrderStatus,
    orderDate: row.order_date.toISOString(),
    currency: row.currency,
    deliveryAddress: readAddress(row.delivery_address),
    notes: row.notes,
    lines: lines.map(toLine),
    total: Number(row.total),
    returnedValue: Number(row.returned_value),
    confirmedAt: iso(row.confirmed_at),
    fulfilledAt: iso(row.fulfilled_at),
    cancelledAt: iso(row.cancelled_at),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

/** Attaches each order's lines (loaded for the whole page in one query). */
export function withLines(rows: readonly OrderRow[], lines: readonly OrderLineRow[]): OrderResponse[] {
  const byOrder = new Map<string, OrderLineRow[]>()
  for (const line of lines) {
    const list = byOrder.get(line.order_id)
    if (list) list.push(line)
    else byOrder.set(line.order_id, [line])
  }
  return rows.map((row) => toOrder(row, byOrder.get(row.id) ?? []))
}
