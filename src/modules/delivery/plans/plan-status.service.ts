import { lockedAt } from '../../../db/applied-at.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { issueDispatchedLines } from '../shipment-lines/index.js'
import { dispatchShipments, openShipmentCodes, releaseShipments } from './plan-shipments.repository.js'
import { invalidPlanTransition, planHasOpenShipments, planNotFound } from './plans.errors.js'
import * as repository from './plans.repository.js'
import type { DispatchResponse, PlanStatus } from './plans.schemas.js'
import { loadPlan } from './plans.service.js'

export const PLAN_MOVES = {
  Scheduled: ['Draft'],
  Dispatched: ['Scheduled'],
  Completed: ['Dispatched'],
  Cancelled: ['Draft', 'Scheduled'],
} as const satisfies Record<string, readonly PlanStatus[]>
export type PlanMove = keyof typeof PLAN_MOVES

const FINISHED = ['Delivered', 'Failed', 'Returned']

/**
 * Moves a plan with its row locked. Dispatching puts its shipments InTransit; completing needs
 * every shipment Delivered, Failed or Returned; cancelling releases them. Dispatched and
 * Completed publish domain events in the same transaction, and so does each dispatched shipment.
 */
export async function movePlan(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  id: string,
  to: PlanMove,
): Promise<DispatchResponse> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const plan = await repository.lockPlan(trx, schema, businessId, id)
    if (!plan) throw planNotFound()
    const from = plan.status as PlanStatus
    const allowedFrom: readonly PlanStatus[] = PLAN_MOVES[to]
    if (!allowedFrom.includes(from)) throw invalidPlanTransition(from, to, allowedFrom)
    // One instant for the plan and its shipments, read from the database after the plan's lock.
    const at = await lockedAt(trx)
    const dispatched = to === 'Dispatched' ? await dispatchShipments(trx, schema, id, at) : []
    // What the shipments carry leaves stock with them, in this transaction.
    if (to === 'Dispatched') await issueDispatchedLines(trx, auth, services.events, id, at, dispatched)
    if (to === 'Completed') {
      const open = await openShipmentCodes(trx, schema, id, FINISHED)
      if (open.length > 0) throw planHasOpenShipments(open)
    }
    if (to === 'Cancelled') await releaseShipments(trx, schema, id)
    await repository.setPlanStatus(trx, schema, id, to, at)
    // Each shipment's move is announced as its own status routes announce it (webhooks, for one),
    // then the plan's: all together, so each handler writes them in one go.
    const announced: DomainEvent[] = dispatched.map((shipment) => ({
      type: 'ShipmentStatusChanged',
      businessId,
      userId: auth.userId,
      payload: {
        shipmentId: shipment.id,
        code: shipment.code,
        deliveryPlanId: id,
        from: shipment.from,
        to: 'InTransit',
      },
    }))
    if (to === 'Dispatched' || to === 'Completed')
      announced.push({
        type: to === 'Dispatched' ? 'PlanDispatched' : 'PlanCompleted',
        businessId,
        userId: auth.userId,
        payload: { deliveryPlanId: id, code: plan.code },
      })
    await services.events.publishAll(trx, schema, announced)
    return loadPlan(trx, auth, id)
  })
}
