import type { Transaction } from 'kysely'
import { lockedAt } from '../../../db/applied-at.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { invalidField, type Reason, validationFailed } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { markDeliveryProof, PROOF_TYPES } from '../../organisation/index.js'
import { moveShipmentIn, type ProofLinks, shipmentNotFound } from '../shipments/index.js'
import { shipmentNotInTransit, stopAlreadyArrived } from './proof-of-delivery.errors.js'
import { toShipmentProof } from './proof-of-delivery.mapper.js'
import * as repository from './proof-of-delivery.repository.js'
import type {
  ArrivedRequest,
  DeliveredRequest,
  FailedRequest,
  ShipmentProofResponse,
} from './proof-of-delivery.schemas.js'

const MiB = 1024 * 1024
/** A signature is drawn on a screen: a small PNG or JPEG (it is printed on the delivery note). */
const SIGNATURE = { types: ['image/png', 'image/jpeg'], maxBytes: MiB }
/** A photo: any image the proof upload takes (the same types become Proof files). */
const PHOTO = { types: PROOF_TYPES, maxBytes: 10 * MiB }
/** A device clock a little ahead of the database's is not an error. */
const CLOCK_SKEW_MS = 5 * 60_000

type Point = ArrivedRequest

function pointReasons(body: Point): Reason[] {
  const hasLat = body.latitude != null
  const hasLng = body.longitude != null
  if (hasLat === hasLng) return []
  return [{ field: hasLat ? 'longitude' : 'latitude', message: 'latitude and longitude come together' }]
}

/** Every proof file exists in the business and is an image of the allowed type and size. */
async function fileReasons(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  signature: string | null,
  photos: readonly string[],
) {
  const ids = [...(signature ? [signature] : []), ...photos]
  const found = new Map(
    (await repository.filesOf(trx, auth.schemaName, auth.businessId, ids)).map((f) => [f.id, f]),
  )
  const reasons: Reason[] = []
  const check = (id: string, field: string, rule: { types: readonly string[]; maxBytes: number }) => {
    const file = found.get(id)
    if (!file)
      reasons.push({ field, message: 'must be a file uploaded to this business (POST /api/files/single)' })
    else if (!rule.types.includes(file.content_type))
      reasons.push({
        field,
        message: `must be an image of type ${rule.types.join(', ')} (is ${file.content_type})`,
      })
    else if (file.size_bytes > rule.maxBytes)
      reasons.push({ field, message: `must be at most ${rule.maxBytes} bytes (is ${file.size_bytes})` })
  }
  if (signature) check(signature, 'signatureFileId', SIGNATURE)
  for (const [i, id] of photos.entries()) check(id, `photoFileIds.${i}`, PHOTO)
  return reasons
}

/** When the operation happened: the device's time, checked against the dispatch and the database clock. */
async function occurredAt(
  trx: Transaction<Tables>,
  sent: string | null | undefined,
  dispatchedAt: Date | null,
) {
  const now = await lockedAt(trx)
  if (sent == null) return { at: now, reasons: [] as Reason[] }
  const at = new Date(sent)
  const reasons: Reason[] = []
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS)
    reasons.push({ field: 'at', message: 'must not be in the future' })
  else if (dispatchedAt && at < dispatchedAt)
    reasons.push({ field: 'at', message: 'must not be before the shipment was dispatched' })
  return { at, reasons }
}

const linksOf = (shipmentId: string, signature: string | null, photos: readonly string[]): ProofLinks => ({
  proofUrl: `/api/v1/shipments/${shipmentId}/proof`,
  signatureUrl: signature ? `/api/files/${signature}` : null,
  photoUrls: photos.map((id) => `/api/files/${id}`),
})

async function readProof(db: Database['db'] | Transaction<Tables>, auth: BusinessAuth, id: string) {
  const proof = toShipmentProof(
    await repository.shipmentWithOperations(db, auth.schemaName, auth.businessId, id),
  )
  if (!proof) throw shipmentNotFound()
  return proof
}

/** The shipment's stop operations and proof (GET /api/v1/shipments/:id/proof). */
export const shipmentProof = (database: Database, auth: BusinessAuth, id: string) =>
  readProof(database.db, auth, id)

type Kind = 'Arrived' | 'Delivered' | 'Failed'

/**
 * One stop operation in one transaction: the shipment locked, the input checked (every field's
 * reason at once), the shipment moved (Delivered, Failed: the shipments module's own move, which
 * answers 409 for any other status and publishes the outcome event with the proof links), the
 * operation recorded and its images made proof files (Shipments View may read them).
 */
async function record(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
  kind: Kind,
  body: Point & { signatureFileId?: string; photoFileIds?: string[] },
  fields: Partial<repository.NewStopOperation>,
): Promise<ShipmentProofResponse> {
  const { schemaName: schema, businessId } = auth
  return deps.database.db.transaction().execute(async (trx) => {
    const shipment = await repository.lockShipment(trx, schema, businessId, id)
    if (!shipment) throw shipmentNotFound()
    const signature = body.signatureFileId ?? null
    const photos = body.photoFileIds ?? []
    const when = await occurredAt(trx, body.at, shipment.dispatched_at)
    const reasons = [
      ...pointReasons(body),
      ...when.reasons,
      ...(await fileReasons(trx, auth, signature, photos)),
    ]
    if (reasons.length > 0) throw validationFailed(reasons)
    if (kind === 'Arrived' && shipment.status !== 'InTransit') throw shipmentNotInTransit(shipment.status)
    if (kind !== 'Arrived') {
      await moveShipmentIn(deps, trx, auth, id, kind, {
        reason: fields.reason ?? undefined,
        proof:
          kind === 'Delivered'
            ? { recipientName: fields.recipient_name ?? null, note: fields.note ?? null, fileId: signature }
            : undefined,
        proofLinks: linksOf(id, signature, photos),
      })
    }
    const saved = await repository.insertOperation(trx, schema, {
      id: newId(),
      business_id: businessId,
      shipment_id: id,
      delivery_plan_id: shipment.delivery_plan_id,
      kind,
      occurred_at: when.at,
      latitude: body.latitude ?? null,
      longitude: body.longitude ?? null,
      signature_file_id: signature,
      photo_file_ids: photos,
      recorded_by_user_id: auth.userId,
      ...fields,
    })
    if (!saved) throw stopAlreadyArrived()
    await markDeliveryProof(trx, auth, [signature, ...photos])
    return readProof(trx, auth, id)
  })
}

export const arrive = (deps: AppDeps, auth: BusinessAuth, id: string, body: ArrivedRequest) =>
  record(deps, auth, id, 'Arrived', body, {})

export const deliver = (deps: AppDeps, auth: BusinessAuth, id: string, body: DeliveredRequest) => {
  if (!body.recipientName.trim()) throw invalidField('recipientName', 'must name who took the goods')
  return record(deps, auth, id, 'Delivered', body, {
    recipient_name: body.recipientName.trim(),
    note: body.note?.trim() || null,
  })
}

export const fail = (deps: AppDeps, auth: BusinessAuth, id: string, body: FailedRequest) =>
  record(deps, auth, id, 'Failed', body, {
    reason: body.reason.trim(),
    after_failure: body.afterFailure ?? null,
  })
