import type { OperationRow } from './proof-of-delivery.repository.js'
import type {
  AfterFailure,
  ShipmentProofResponse,
  StopOperationResponse,
} from './proof-of-delivery.schemas.js'

const number = (value: string | null) => (value === null ? null : Number(value))

/** Rows of a shipment joined with its operations (none: one row of nulls) to the proof record. */
export function toShipmentProof(rows: readonly OperationRow[]): ShipmentProofResponse | undefined {
  const first = rows[0]
  if (!first) return undefined
  const operations: StopOperationResponse[] = []
  for (const row of rows) {
    if (row.id === null) continue
    operations.push({
      id: row.id,
      shipmentId: row.shipment_id,
      deliveryPlanId: row.delivery_plan_id,
      kind: row.kind as StopOperationResponse['kind'],
      occurredAt: (row.occurred_at as Date).toISOString(),
      latitude: number(row.latitude),
      longitude: number(row.longitude),
      recipientName: row.recipient_name,
      signatureFileId: row.signature_file_id,
      photoFileIds: row.photo_file_ids ?? [],
      note: row.note,
      reason: row.reason,
      afterFailure: row.after_failure as AfterFailure | null,
      resolution: row.resolution,
      dateCreated: (row.date_created as Date).toISOString(),
    })
  }
  return { shipmentId: first.shipment_id, code: first.code, status: first.status, operations }
}
