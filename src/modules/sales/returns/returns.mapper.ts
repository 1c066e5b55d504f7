import type { ReturnRow } from './returns.repository.js'
import type { ReturnResponse, ReturnStatus } from './returns.schemas.js'

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

/** Rounds to `places` decimals (the credit's 4, a quantity's 4). */
export const round = (value: number, places = 4) => {
  const factor = 10 ** places
  return Math.round((value + Number.EPSILON) * factor) / factor
}

const CREDITED: readonly string[] = ['Received', 'WrittenOff']

export const toReturn = (row: ReturnRow): ReturnResponse => ({
  id: row.id,
  number: row.number,
  status: row.status as ReturnStatus,
  orderId: row.order_id,
  orderCode: row.order_code,
  shipmentId: row.shipment_id,
  customerId: row.customer_id,
  reason: row.reason,
  notes: row.notes,
  value: Number(row.value),
  credited: CREDITED.includes(row.status),
  lines: row.lines.map((line) => ({
    ...line,
    quantity: Number(line.quantity),
    unitPrice: Number(line.unitPrice),
    value: Number(line.value),
    unitCost: Number(line.unitCost),
    leftAt: iso(line.leftAt)!,
  })),
  receivedAt: iso(row.received_at),
  writtenOffAt: iso(row.written_off_at),
  cancelledAt: iso(row.cancelled_at),
  createdByUserId: row.created_by_user_id,
  dateCreated: row.date_created.toISOString(),
  dateModified: row.date_modified.toISOString(),
})
