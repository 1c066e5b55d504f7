import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { markDeliveryProof } from '../../organisation/index.js'
import { issueDispatchedLines, returnShipmentGoods } from '../shipment-lines/index.js'
import { invalidShipmentTransition, shipmentNotFound } from './shipments.errors.js'
import type { ProofLinks } from './shipments.events.js'
import * as repository from './shipments.repository.js'
import type { DeliverRequest, ShipmentResponse, ShipmentStatus } from './shipments.schemas.js'
import { loadShipment } from './shipments.service.js'

/** Target status -> the statuses it may come from. */
export const SHIPMENT_MOVES = {
  Assigned: ['Pending'],
  InTransit: ['Assigned'],
  Delivered: ['InTransit'],
  Failed: ['InTransit'],
  Returned: ['Failed'],
  Cancelled: ['Pending', 'Assigned', 'InTransit'],
} as const satisfies Record<string, readonly ShipmentStatus[]>
export type ShipmentMove = keyof typeof SHIPMENT_MOVES

export interface MoveDetails {
  reason?: string
  proof?: DeliverRequest
  /** Where a stop's proof can be read (delivery/proof-of-delivery): carried by the outcome events. */
  proofLinks?: ProofLinks
}

/**
 * Moves a shipment with one conditional UPDATE; when nothing matched, the current status tells
 * an unknown id (404) from a forbidden move (409). Delivered and Failed publish a domain event
 * in the same transaction (notifications react to it).
 */
export async function moveShipment(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
  to: ShipmentMove,
  details: MoveDetails = {},
): Promise<ShipmentResponse> {
  if (to === 'Failed' && !details.reason?.trim())
    throw invalidField('reason', 'must say why the delivery failed')
  return deps.database.db.transaction().execute((trx) => moveShipmentIn(deps, trx, auth, id, to, details))
}

/** The same move in the caller's transaction, so a caller's own rows commit or roll back with it. */
export async function moveShipmentIn(
  { services }: AppDeps,
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  id: string,
  to: ShipmentMove,
  details: MoveDetails = {},
): Promise<ShipmentResponse> {
  const { schemaName: schema, businessId } = auth
  const reason = details.reason?.trim()
  if (to === 'Failed' && !reason) throw invalidField('reason', 'must say why the delivery failed')
  const proof = details.proof
  if (proof?.fileId && !(await repository.fileExists(trx, schema, businessId, proof.fileId)))
    throw invalidField('fileId', 'must be a file uploaded to this business (POST /api/files/single)')
  const extra =
    to === 'Failed'
      ? { fail_reason: reason as string }
      : to === 'Delivered'
        ? {
            proof: JSON.stringify({
              recipientName: proof?.recipientName?.trim() || null,
              note: proof?.note?.trim() || null,
              fileId: proof?.fileId ?? null,
            }),
          }
        : {}
  // A move with several possible sources reads (and locks) the one it leaves, for the event.
  const allowed: readonly ShipmentStatus[] = SHIPMENT_MOVES[to]
  const from =
    allowed.length === 1 ? allowed[0] : await repository.statusOf(trx, schema, businessId, id, true)
  const moved = await repository.moveStatus(trx, schema, businessId, id, SHIPMENT_MOVES[to], to, extra)
  if (!moved) {
    const current = await repository.statusOf(trx, schema, businessId, id)
    if (!current) throw shipmentNotFound()
    throw invalidShipmentTransition(current, to, SHIPMENT_MOVES[to])
  }
  // What it carries leaves stock with it, and goes back when it is cancelled on the way.
  if (to === 'InTransit')
    await issueDispatchedLines(trx, auth, services.events, moved.delivery_plan_id, new Date(), [
      { id, code: moved.code },
    ])
  // Whoever follows the shipment (Shipments View) may then download its proof image.
  if (to === 'Delivered' && proof?.fileId) await markDeliveryProof(trx, auth, [proof.fileId])
  if (to === 'Cancelled' && from === 'InTransit')
    await returnShipmentGoods(trx, auth, services.events, { id, code: moved.code })
  // The move matched a row, so the status it left was read.
  await services.events.publish(trx, schema, {
    type: 'ShipmentStatusChanged',
    businessId,
    userId: auth.userId,
    payload: { shipmentId: id, code: moved.code, deliveryPlanId: moved.delivery_plan_id, from: from!, to },
  })
  if (to === 'Delivered' || to === 'Failed') {
    await services.events.publish(trx, schema, {
      type: to === 'Delivered' ? 'ShipmentDelivered' : 'ShipmentFailed',
      businessId,
      userId: auth.userId,
      payload: {
        shipmentId: id,
        code: moved.code,
        deliveryPlanId: moved.delivery_plan_id,
        reason: reason ?? null,
        ...(details.proofLinks ? { proof: details.proofLinks } : {}),
      },
    })
  }
  return loadShipment(trx, auth, id)
}
