import type { DomainEventHandler } from '../../../platform/domain-events.js'
import { readSetting } from '../../organisation/index.js'
import { failedOnPlan, recordUnreportedFailures, resolveFailed } from './proof-of-delivery.repository.js'

/**
 * When a plan completes, each of its failed deliveries goes back to Pending for a later plan
 * (Replan) or on to Returned (ReturnToStock): as the driver's failure report chose, else as the
 * business setting delivery.failedDeliveryAction says. Runs in the completing transaction. A failure
 * no stop reported (the shipment's own status move) gets its stop record first, so a shipment
 * replanned off the plan stays on the plan's timeline either way.
 */
export const resolveFailedDeliveries: DomainEventHandler = async (db, schemaName, event) => {
  if (event.type !== 'PlanCompleted') return
  const planId = event.payload.deliveryPlanId
  const failed = await failedOnPlan(db, schemaName, event.businessId, planId)
  if (failed.length === 0) return
  await recordUnreportedFailures(db, schemaName, event.businessId, planId, failed)
  const fallback = await readSetting(db, schemaName, event.businessId, 'delivery.failedDeliveryAction')
  const returned = failed.filter((s) => (s.after_failure ?? fallback) === 'ReturnToStock').map((s) => s.id)
  const replanned = failed.filter((s) => (s.after_failure ?? fallback) !== 'ReturnToStock').map((s) => s.id)
  await resolveFailed(db, schemaName, planId, replanned, 'Replanned')
  await resolveFailed(db, schemaName, planId, returned, 'Returned')
}
