import { readAddress } from '../../../http/address.js'
import { storedWindows } from './delivery-windows.js'
import type { ShipmentRow } from './shipments.repository.js'
import type { ProofOfDelivery, ShipmentResponse, ShipmentStatus } from './shipments.schemas.js'

const iso = (value: Date | null) => (value ? value.toISOString() : null)
const decimal = (value: string | null) => (value === null ? null : Number(value))

function readProof(stored: unknown): ProofOfDelivery | null {
  if (stored === null || typeof stored !== 'object') return null
  const proof = stored as Partial<ProofOfDelivery>
  return {
    recipientName: proof.recipientName ?? null,
    note: proof.note ?? null,
    fileId: proof.fileId ?? null,
  }
}

export function toShipment(row: ShipmentRow): ShipmentResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    code: row.code,
    orderId: row.order_id,
    customerId: row.customer_id,
    status: row.status as ShipmentStatus,
    pickupAddress: readAddress(row.pickup_address),
    deliveryAddress: readAddress(row.delivery_address),
    weight: decimal(row.weight),
    volume: decimal(row.volume),
    dimensionPresetId: row.dimension_preset_id,
    scheduledDate: iso(row.scheduled_date),
    deliveryPlanId: row.delivery_plan_id,
    stopSequence: row.stop_sequence,
    notes: row.notes,
    failReason: row.fail_reason,
    proof: readProof(row.proof),
    assignedAt: iso(row.assigned_at),
    dispatchedAt: iso(row.dispatched_at),
    deliveredAt: iso(row.delivered_at),
    failedAt: iso(row.failed_at),
    returnedAt: iso(row.returned_at),
    cancelledAt: iso(row.cancelled_at),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
    deliveryWindows: storedWindows(row.delivery_windows),
    serviceMinutes: decimal(row.service_minutes),
    plannedArrival: iso(row.planned_arrival),
    plannedDeparture: iso(row.planned_departure),
  }
}
