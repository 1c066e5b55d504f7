import type { Database } from '../../../db/database.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { SHIPMENT_LIST, scopedUnassignedShipments, toShipment } from '../shipments/index.js'
import { unassignedShipmentCount } from './plan-shipments.repository.js'
import { planNotFound } from './plans.errors.js'
import * as repository from './plans.repository.js'
import {
  type DeliveryPlanTimelineResponse,
  type DispatchOverviewResponse,
  PLAN_STATUSES,
  type PlanStatus,
} from './plans.schemas.js'

/** Shipments on no plan that can still go on one (Pending or Assigned), with the standard list parameters. */
export async function unassignedShipments(database: Database, auth: BusinessAuth, query: ListQuery) {
  const scoped = scopedUnassignedShipments(database.db, auth.schemaName, auth.businessId)
  const { rows, total, page } = await runList(scoped, query, SHIPMENT_LIST)
  return paged('core', rows.map(toShipment), total, page)
}

/** Counts by status, today's plans (the business's day, in its time zone) and the number of unassigned shipments. */
export async function overview(database: Database, auth: BusinessAuth): Promise<DispatchOverviewResponse> {
  const { schemaName: schema, businessId } = auth
  const [counts, today, unassigned] = await Promise.all([
    repository.planStatusCounts(database.db, schema, businessId),
    repository.todaysPlans(database.db, schema, businessId),
    unassignedShipmentCount(database.db, schema, businessId),
  ])
  const countsByStatus = Object.fromEntries(PLAN_STATUSES.map((s) => [s, 0])) as Record<string, number>
  for (const row of counts) countsByStatus[row.status] = Number(row.n)
  return {
    countsByStatus,
    todaysPlans: today.map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      status: p.status as PlanStatus,
      shipmentCount: Number(p.shipment_count ?? 0),
    })),
    unassignedShipments: unassigned,
  }
}

const PLAN_MILESTONES = [
  ['date_created', 'Created'],
  ['scheduled_at', 'Scheduled'],
  ['autobatched_at', 'Autobatched'],
  ['dispatched_at', 'Dispatched'],
  ['completed_at', 'Completed'],
  ['cancelled_at', 'Cancelled'],
] as const
const SHIPMENT_MILESTONES = [
  ['assigned_at', 'Assigned'],
  ['dispatched_at', 'InTransit'],
  ['delivered_at', 'Delivered'],
  ['failed_at', 'Failed'],
  ['returned_at', 'Returned'],
] as const

/** Every milestone of the plan and of each of its shipments, in time order (plan before shipment on a tie). */
export async function timeline(
  database: Database,
  auth: BusinessAuth,
  id: string,
): Promise<DeliveryPlanTimelineResponse> {
  const found = await repository.findPlanWithShipments(database.db, auth.schemaName, auth.businessId, id)
  if (!found) throw planNotFound()
  const { plan, shipments } = found
  const entries: (DeliveryPlanTimelineResponse['entries'][number] & { rank: number })[] = []
  for (const [column, milestone] of PLAN_MILESTONES) {
    const at = plan[column]
    if (at)
      entries.push({
        at: at.toISOString(),
        subject: 'Plan',
        id: plan.id,
        code: plan.code,
        milestone,
        note: null,
        rank: 0,
      })
  }
  for (const shipment of shipments) {
    for (const [column, milestone] of SHIPMENT_MILESTONES) {
      const at = shipment[column]
      if (!at) continue
      const note = milestone === 'Failed' ? shipment.fail_reason : null
      entries.push({
        at: at.toISOString(),
        subject: 'Shipment',
        id: shipment.id,
        code: shipment.code,
        milestone,
        note,
        rank: 1,
      })
    }
  }
  entries.sort((a, b) => a.at.localeCompare(b.at) || a.rank - b.rank || a.code.localeCompare(b.code))
  return { deliveryPlanId: plan.id, code: plan.code, entries: entries.map(({ rank: _, ...entry }) => entry) }
}
