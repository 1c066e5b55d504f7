import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'
import { scopedPlans } from './plans.repository.js'

/** A shipment on the plan now, with its milestones' stamps (JSON: stamps as text). */
interface ShipmentJson {
  id: string
  code: string
  assigned_at: string | null
  dispatched_at: string | null
  delivered_at: string | null
  failed_at: string | null
  returned_at: string | null
  fail_reason: string | null
}

/** A stop operation recorded on the plan, with its shipment's code and whether the shipment is still on it. */
interface StopJson {
  shipment_id: string
  code: string
  on_plan: boolean
  kind: 'Arrived' | 'Delivered' | 'Failed'
  occurred_at: string
  reason: string | null
  resolution: 'Replanned' | 'Returned' | null
}

const stamp = (value: string | null) => (value === null ? null : new Date(value))

/**
 * A plan's history in one statement: the plan's stamps, the shipments on it now, and every stop
 * operation recorded on it, including those of shipments that have since left it (a failed
 * delivery completion replanned goes back to Pending off the plan; its stop record keeps the plan).
 */
export async function findPlanTimeline(db: Executor, schema: string, businessId: string, id: string) {
  const shipments = sql.table(`${schema}.shipments`)
  const stops = sql.table(`${schema}.stop_operations`)
  const row = await scopedPlans(db, schema, businessId)
    .select(
      sql<ShipmentJson[]>`coalesce((
        select jsonb_agg(jsonb_build_object(
          'id', s.id, 'code', s.code, 'assigned_at', s.assigned_at, 'dispatched_at', s.dispatched_at,
          'delivered_at', s.delivered_at, 'failed_at', s.failed_at, 'returned_at', s.returned_at,
          'fail_reason', s.fail_reason))
        from ${shipments} as s where s.delivery_plan_id = p.id
      ), '[]'::jsonb)`.as('shipments'),
    )
    .select(
      sql<StopJson[]>`coalesce((
        select jsonb_agg(jsonb_build_object(
          'shipment_id', o.shipment_id, 'code', s.code, 'on_plan', s.delivery_plan_id is not distinct from p.id,
          'kind', o.kind, 'occurred_at', o.occurred_at, 'reason', o.reason, 'resolution', o.resolution)
          order by o.occurred_at, o.date_created)
        from ${stops} as o join ${shipments} as s on s.id = o.shipment_id
        where o.delivery_plan_id = p.id and o.business_id = p.business_id
      ), '[]'::jsonb)`.as('stops'),
    )
    .where('p.id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  const { shipments: onPlan, stops: recorded, ...plan } = row
  return {
    plan,
    shipments: onPlan.map((s) => ({
      id: s.id,
      code: s.code,
      assigned_at: stamp(s.assigned_at),
      dispatched_at: stamp(s.dispatched_at),
      delivered_at: stamp(s.delivered_at),
      failed_at: stamp(s.failed_at),
      returned_at: stamp(s.returned_at),
      fail_reason: s.fail_reason,
    })),
    stops: recorded.map((o) => ({ ...o, occurred_at: new Date(o.occurred_at) })),
  }
}
