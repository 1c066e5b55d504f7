import type { Database } from '../../../db/database.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { SHIPMENT_LIST, scopedUnassignedShipments, toShipment } from '../shipments/index.js'
import { unassignedShipmentCount } from './plan-shipments.repository.js'
import { findPlanTimeline } from './plan-timeline.repository.js'
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
/** A shipment's milestones at one instant keep the order they happen in. */
const MILESTONE_ORDER = ['Assigned', 'InTransit', 'Arrived', 'Delivered', 'Failed', 'Replanned', 'Returned']

type Entry = DeliveryPlanTimelineResponse['entries'][number]

/**
 * Every milestone of the plan and of each shipment that was one of its stops, in time order (plan
 * before shipment on a tie). A shipment on the plan now brings its own stamps and its arrival; one
 * that has left it (a failed delivery replanned at completion) brings what its stop records on this
 * plan say: arrived, delivered or failed (with the reason), and Replanned as of the plan's completion.
 */
export async function timeline(
  database: Database,
  auth: BusinessAuth,
  id: string,
): Promise<DeliveryPlanTimelineResponse> {
  const found = await findPlanTimeline(database.db, auth.schemaName, auth.businessId, id)
  if (!found) throw planNotFound()
  const { plan, shipments, stops } = found
  const entries: (Entry & { rank: number })[] = []
  const add = (
    at: Date,
    subject: 'Plan' | 'Shipment',
    of: { id: string; code: string },
    milestone: string,
    note: string | null = null,
  ) =>
    entries.push({
      at: at.toISOString(),
      subject,
      id: of.id,
      code: of.code,
      milestone,
      note,
      rank: subject === 'Plan' ? 0 : 1,
    })
  for (const [column, milestone] of PLAN_MILESTONES) {
    const at = plan[column]
    if (at) add(at, 'Plan', plan, milestone)
  }
  for (const shipment of shipments) {
    for (const [column, milestone] of SHIPMENT_MILESTONES) {
      const at = shipment[column]
      // A shipment replanned after failing keeps that failure's stamp until it fails again: it
      // belongs to this plan only once the shipment has been dispatched on it.
      const earlier =
        milestone === 'Failed' && !(shipment.dispatched_at && at && at >= shipment.dispatched_at)
      if (at && !earlier)
        add(at, 'Shipment', shipment, milestone, milestone === 'Failed' ? shipment.fail_reason : null)
    }
  }
  for (const stop of stops) {
    const shipment = { id: stop.shipment_id, code: stop.code }
    // On the plan, its own stamps say when it was delivered or failed; the stop adds the arrival.
    if (stop.on_plan && stop.kind !== 'Arrived') continue
    add(stop.occurred_at, 'Shipment', shipment, stop.kind, stop.kind === 'Failed' ? stop.reason : null)
    if (!stop.on_plan && stop.resolution)
      add(plan.completed_at ?? stop.occurred_at, 'Shipment', shipment, stop.resolution)
  }
  const order = (milestone: string) => MILESTONE_ORDER.indexOf(milestone)
  entries.sort(
    (a, b) =>
      a.at.localeCompare(b.at) ||
      a.rank - b.rank ||
      a.code.localeCompare(b.code) ||
      order(a.milestone) - order(b.milestone),
  )
  return { deliveryPlanId: plan.id, code: plan.code, entries: entries.map(({ rank: _, ...entry }) => entry) }
}
