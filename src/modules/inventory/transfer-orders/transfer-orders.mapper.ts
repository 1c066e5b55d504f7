import type { InTransitRow, TransferOrderRow } from './transfer-orders.repository.js'
import type {
  InTransitLineResponse,
  TransferDirection,
  TransferOrderResponse,
  TransferOrderStatus,
} from './transfer-orders.schemas.js'

/** Rounds to `places` decimals for the wire. */
export const round = (value: number, places = 4) => {
  const factor = 10 ** places
  return Math.round((value + Number.EPSILON) * factor) / factor
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

const SHIPPED: readonly string[] = ['Shipped', 'PartiallyReceived', 'Received']

export function toTransferOrder(row: TransferOrderRow): TransferOrderResponse {
  const shipped = SHIPPED.includes(row.status)
  const lines = row.lines.map((line) => {
    const quantity = Number(line.quantity)
    const received = Number(line.quantityReceived)
    const quantityShipped = shipped ? quantity : 0
    const inTransit = round(quantityShipped - received)
    const unitCost = line.unitCost === null ? null : Number(line.unitCost)
    return {
      ...line,
      quantity,
      unitCost: unitCost === null ? null : round(unitCost, 10),
      quantityShipped,
      quantityReceived: received,
      quantityInTransit: inTransit,
      valueInTransit: unitCost === null ? 0 : round(inTransit * unitCost),
    }
  })
  return {
    id: row.id,
    number: row.number,
    sourceBusinessId: row.source_business_id,
    destinationBusinessId: row.destination_business_id,
    direction: row.direction as TransferDirection,
    status: row.status as TransferOrderStatus,
    notes: row.notes,
    shippedAt: iso(row.shipped_at),
    receivedAt: iso(row.received_at),
    cancelledAt: iso(row.cancelled_at),
    shipmentId: row.shipment_id,
    lines,
    valueInTransit: round(lines.reduce((sum, l) => sum + l.valueInTransit, 0)),
    receipts: row.receipts.map((r) => ({
      id: r.id,
      effectiveDate: iso(r.effectiveDate)!,
      lines: r.lines.map((l) => ({ lineId: l.lineId, quantity: Number(l.quantity) })),
      createdByUserId: r.createdByUserId,
      dateCreated: iso(r.dateCreated)!,
    })),
    createdByUserId: row.created_by_user_id,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

export const toInTransitLine = (row: InTransitRow): InTransitLineResponse => ({
  transferOrderId: row.transfer_order_id,
  number: row.number,
  direction: row.direction as TransferDirection,
  sourceBusinessId: row.source_business_id,
  destinationBusinessId: row.destination_business_id,
  lineId: row.line_id,
  productId: row.source_product_id,
  sku: row.sku,
  name: row.name,
  destinationProductId: row.destination_product_id,
  quantityInTransit: Number(row.quantity_in_transit),
  unitCost: Number(row.unit_cost),
  value: Number(row.value),
  shippedAt: iso(row.shipped_at)!,
})
