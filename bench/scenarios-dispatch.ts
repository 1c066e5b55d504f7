/**
 * Dispatching a plan of 50 shipments of 5 lines each (a write: the shipments InTransit, 250 Sale
 * ledger entries at the moving average and their re-valuation, the lines' issue costs, the 250
 * reservations consumed, 50 orders Fulfilled with their traces, 50 tracking links, the plan's
 * notification and 151 events). Every dispatch takes a fresh Scheduled plan, seeded beforehand.
 * The bare route runs what a careful engineer would write by hand: the same locks (plan, shipments,
 * orders, products, in that order), each kind of row written in one statement for the whole plan,
 * the events' audit and outbox rows in one statement, and the plan read back in one.
 */
import { randomBytes } from 'node:crypto'
import { single } from '../src/http/envelopes.js'
import { toPlan } from '../src/modules/delivery/plans/plans.mapper.js'
import type { PlanRow } from '../src/modules/delivery/plans/plans.repository.js'
import type { ShipmentRow } from '../src/modules/delivery/shipments/index.js'
import { NOTIFICATION_CHANNEL } from '../src/modules/notifications/notifications.repository.js'
import { type BenchEvent, eventsStatement } from './event-sql.js'
import { bearerHeaders } from './reads.js'
import {
  type Fresh,
  field,
  type ResolvedSeed,
  type Scenario,
  type Seed,
  type Statement,
} from './scenario-types.js'
import { DISPATCH_PLANS, dispatchPlan, PLAN_SHIPMENTS, SHIPMENT_LINES } from './seed-order-to-door.js'

const NIL = '00000000-0000-0000-0000-000000000000'
const LINES = PLAN_SHIPMENTS * SHIPMENT_LINES
const raw = (text: string): Statement => ({ sql: text, params: () => [] })
const statement = (
  name: string,
  text: (s: string) => string,
  params: (seed: ResolvedSeed, fresh: Fresh) => unknown[],
): Statement => ({ name: `bench-dispatch-${name}`, sql: (seed) => text(seed.schemaName), params })

/** The baseline's plan: the n-th of its own range, after Cartage's (a nil id once they run out: a failure). */
const baselinePlan = (seed: Seed, fresh: Fresh) =>
  fresh.serial < DISPATCH_PLANS ? dispatchPlan(seed, DISPATCH_PLANS + fresh.serial) : NIL

// The rows earlier statements of the request read (their positions in `steps` below).
interface Line {
  id: string
  shipment_id: string
  code: string
  order_id: string | null
  line_number: number
  order_line_id: string | null
  product_id: string
  quantity: string
}
interface Order {
  id: string
  code: string
  customer_id: string
  status: string
}
const plan = (fresh: Fresh) => (fresh.results[1]?.[0] ?? {}) as { id: string; code: string }
const moved = (fresh: Fresh) =>
  (fresh.results[2] ?? []) as unknown as { id: string; code: string; from: string }[]
const lines = (fresh: Fresh) => (fresh.results[3] ?? []) as unknown as Line[]
const lockedOrders = (fresh: Fresh) => (fresh.results[4] ?? []) as unknown as Order[]
const starts = (fresh: Fresh) =>
  (fresh.results[6] ?? []) as unknown as {
    product_id: string
    from_date: Date
    from_seq: string
    check_date: Date | null
    check_seq: string | null
  }[]
const revalued = (fresh: Fresh) =>
  (fresh.results[7] ?? []) as unknown as { product_id: string; last_balance: string; last_average: string }[]
const issued = (fresh: Fresh) => (fresh.results[9] ?? []) as unknown as { id: string; unit_cost: string }[]
const fulfilled = (fresh: Fresh) => (fresh.results[11] ?? []) as unknown as Order[]
const entryId = (fresh: Fresh, i: number) => fresh.id(i)

const lockPlan = statement(
  'lock-plan',
  (s) => `SELECT id, code, status FROM "${s}".delivery_plans WHERE id = $1 AND business_id = $2 FOR UPDATE`,
  (seed, fresh) => [baselinePlan(seed, fresh), seed.businessId],
)
const moveShipments = statement(
  'move-shipments',
  (s) =>
    `UPDATE "${s}".shipments AS s SET status = 'InTransit', dispatched_at = now(), date_modified = now()
     FROM (SELECT id, status FROM "${s}".shipments WHERE delivery_plan_id = $1 AND status IN ('Pending', 'Assigned') FOR UPDATE) AS before
     WHERE s.id = before.id RETURNING s.id, s.code, before.status AS "from"`,
  (seed, fresh) => [baselinePlan(seed, fresh)],
)
const readLines = statement(
  'lines',
  (s) =>
    `SELECT l.id, l.shipment_id, s.code, s.order_id, l.line_number, l.order_line_id, l.product_id, l.quantity
     FROM "${s}".shipment_lines l JOIN "${s}".shipments s ON s.id = l.shipment_id
     WHERE s.delivery_plan_id = $1 ORDER BY s.stop_sequence NULLS LAST, s.code, l.line_number`,
  (seed, fresh) => [baselinePlan(seed, fresh)],
)
const lockOrders = statement(
  'lock-orders',
  (s) =>
    `SELECT o.id, o.code, o.customer_id, o.status FROM "${s}".orders o
     WHERE o.id = ANY(ARRAY(SELECT l.order_id FROM "${s}".order_lines l WHERE l.id = ANY($2::uuid[])))
       AND o.business_id = $1 AND o.status IN ('Confirmed', 'PartiallyFulfilled')
     ORDER BY o.id FOR UPDATE`,
  (seed, fresh) => [seed.businessId, lines(fresh).flatMap((l) => (l.order_line_id ? [l.order_line_id] : []))],
)
const productIds = (fresh: Fresh) => [...new Set(lines(fresh).map((l) => l.product_id))]
const lockProducts = statement(
  'lock-products',
  (s) =>
    `SELECT id, archived_at FROM "${s}".products WHERE business_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
  (seed, fresh) => [seed.businessId, productIds(fresh)],
)
// One Sale per line, in stop order; per product, where re-valuation starts and where stock first goes out.
const insertEntries = statement(
  'insert-entries',
  (s) =>
    `WITH ins AS (
       INSERT INTO "${s}".stock_ledger (id, business_id, product_id, type, quantity, effective_date, reference, created_by_user_id)
       SELECT x.id, $1, x.product_id, 'Sale', -x.quantity, now(), x.reference, $2
       FROM unnest($3::uuid[], $4::uuid[], $5::numeric[], $6::text[]) WITH ORDINALITY AS x(id, product_id, quantity, reference, n)
       ORDER BY x.n RETURNING product_id, effective_date, seq, quantity)
     SELECT f.product_id, f.effective_date AS from_date, f.seq AS from_seq, c.effective_date AS check_date, c.seq AS check_seq
     FROM (SELECT DISTINCT ON (product_id) product_id, effective_date, seq FROM ins ORDER BY product_id, effective_date, seq) f
     LEFT JOIN (SELECT DISTINCT ON (product_id) product_id, effective_date, seq FROM ins WHERE quantity < 0
                ORDER BY product_id, effective_date, seq) c ON c.product_id = f.product_id`,
  (seed, fresh) => [
    seed.businessId,
    seed.userId,
    lines(fresh).map((_, i) => entryId(fresh, i)),
    lines(fresh).map((l) => l.product_id),
    lines(fresh).map((l) => l.quantity),
    lines(fresh).map((l) => l.code),
  ],
)
const revalue = statement(
  'revalue',
  (s) =>
    `SELECT x.product_id, r.last_balance, r.last_average, r.short_id
     FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[], $4::timestamptz[], $5::bigint[]) WITH ORDINALITY
       AS x(product_id, from_date, from_seq, check_date, check_seq, n)
     CROSS JOIN LATERAL "${s}".stock_revalue(x.product_id, x.from_date, x.from_seq, x.check_date, x.check_seq, true) r
     ORDER BY x.n`,
  (_seed, fresh) => [
    starts(fresh).map((r) => r.product_id),
    starts(fresh).map((r) => r.from_date),
    starts(fresh).map((r) => r.from_seq),
    starts(fresh).map((r) => r.check_date),
    starts(fresh).map((r) => r.check_seq),
  ],
)
const updateStock = statement(
  'update-stock',
  (s) =>
    `UPDATE "${s}".products p SET on_hand = x.on_hand, average_cost = round(x.average_cost, 10), date_modified = now()
     FROM unnest($1::uuid[], $2::numeric[], $3::numeric[]) AS x(id, on_hand, average_cost) WHERE p.id = x.id`,
  (_seed, fresh) => [
    revalued(fresh).map((r) => r.product_id),
    revalued(fresh).map((r) => r.last_balance),
    revalued(fresh).map((r) => r.last_average),
  ],
)
// Each line's entry and the exact cost it left with (stock_entry_values, once per product).
const setIssued = statement(
  'set-issued',
  (s) =>
    `UPDATE "${s}".shipment_lines l SET ledger_entry_id = x.entry_id, unit_cost = round(v.unit_cost, 10), date_modified = now()
     FROM unnest($1::uuid[], $2::uuid[]) AS x(line_id, entry_id)
     JOIN (SELECT v.* FROM (SELECT e.product_id, array_agg(e.entry_id) AS ids
                            FROM unnest($3::uuid[], $2::uuid[]) AS e(product_id, entry_id) GROUP BY e.product_id) g
           CROSS JOIN LATERAL "${s}".stock_entry_values(g.product_id, g.ids) v) v ON v.id = x.entry_id
     WHERE l.id = x.line_id RETURNING l.id, l.unit_cost`,
  (_seed, fresh) => [
    lines(fresh).map((l) => l.id),
    lines(fresh).map((_, i) => entryId(fresh, i)),
    lines(fresh).map((l) => l.product_id),
  ],
)
const shippedLines = (fresh: Fresh) => lines(fresh).filter((l) => l.order_line_id)
const consumeReservations = statement(
  'consume',
  (s) =>
    `UPDATE "${s}".stock_reservations r
     SET quantity = greatest(r.quantity - s.quantity, 0),
         backordered = greatest(r.backordered - greatest(s.quantity - r.quantity, 0), 0),
         shipped = r.shipped + s.quantity, date_modified = now()
     FROM (SELECT line_id, sum(quantity) AS quantity FROM unnest($1::uuid[], $2::numeric[]) AS t(line_id, quantity)
           GROUP BY line_id) s
     WHERE r.order_line_id = s.line_id`,
  (_seed, fresh) => [
    shippedLines(fresh).map((l) => l.order_line_id),
    shippedLines(fresh).map((l) => l.quantity),
  ],
)
// Fulfilled once every reserved line has shipped in full, else PartiallyFulfilled; only the orders that change.
const moveOrders = statement(
  'move-orders',
  (s) =>
    `WITH complete AS (
       SELECT r.order_id, CASE WHEN bool_and(r.shipped >= l.quantity) THEN 'Fulfilled' ELSE 'PartiallyFulfilled' END AS status
       FROM "${s}".stock_reservations r JOIN "${s}".order_lines l ON l.id = r.order_line_id
       WHERE r.order_id = ANY($1::uuid[]) GROUP BY r.order_id)
     UPDATE "${s}".orders o SET status = c.status,
       fulfilled_at = CASE WHEN c.status = 'Fulfilled' THEN clock_timestamp() ELSE o.fulfilled_at END,
       date_modified = clock_timestamp()
     FROM complete c WHERE o.id = c.order_id AND o.status <> c.status
     RETURNING o.id, o.code, o.customer_id, o.status`,
  (_seed, fresh) => [lockedOrders(fresh).map((o) => o.id)],
)
const traceOrders = statement(
  'trace',
  (s) =>
    `INSERT INTO "${s}".activity_traces (id, business_id, customer_id, order_id, type, note, source, created_by_user_id, occurred_at)
     SELECT gen_random_uuid(), $1, x.customer_id, x.order_id, 'OrderFulfilled', x.note, 'System', $2, now()
     FROM unnest($3::uuid[], $4::uuid[], $5::text[]) AS x(customer_id, order_id, note)`,
  (seed, fresh) => [
    seed.businessId,
    seed.userId,
    fulfilled(fresh).map((o) => o.customer_id),
    fulfilled(fresh).map((o) => o.id),
    fulfilled(fresh).map((o) =>
      o.status === 'Fulfilled' ? `Order ${o.code} fulfilled` : `Order ${o.code} partly shipped`,
    ),
  ],
)
const planDispatched = statement(
  'plan-status',
  (s) =>
    `UPDATE "${s}".delivery_plans SET status = 'Dispatched', dispatched_at = now(), date_modified = now() WHERE id = $1`,
  (seed, fresh) => [baselinePlan(seed, fresh)],
)
// Each shipment's tracking link, due to be mailed to its customer's contact.
const trackingLinks = statement(
  'tracking-links',
  (s) =>
    `INSERT INTO global.tracking_links (token, schema_name, business_id, shipment_id, email_to, mail_due)
     SELECT x.token, $1, $2, s.id, e.email, e.email IS NOT NULL
     FROM unnest($3::text[], $4::uuid[]) AS x(token, shipment_id)
     JOIN "${s}".shipments s ON s.id = x.shipment_id
     LEFT JOIN "${s}".customers c ON c.id = s.customer_id AND c.business_id = s.business_id
     CROSS JOIN LATERAL (SELECT coalesce((SELECT cc.email FROM "${s}".customer_contacts cc
        WHERE cc.customer_id = s.customer_id AND cc.email IS NOT NULL ORDER BY cc.is_primary DESC, cc.date_created LIMIT 1),
        c.email) AS email) e
     ON CONFLICT (schema_name, shipment_id) DO UPDATE SET email_to = excluded.email_to, mail_due = excluded.mail_due, mail_attempts = 0`,
  (seed, fresh) => [
    seed.schemaName,
    seed.businessId,
    moved(fresh).map(() => randomBytes(32).toString('base64url')),
    moved(fresh).map((m) => m.id),
  ],
)
const notify = statement(
  'notify',
  (s) =>
    `WITH created AS (
       INSERT INTO "${s}".notifications (id, business_id, user_id, title, message, level, priority, type, entity_type, entity_id, action_link)
       SELECT gen_random_uuid(), $1, m.user_id, 'Delivery plan dispatched', $2, 'Info', 'Medium', 'Business', 'None', $3, $4
       FROM global.memberships m JOIN global.businesses b ON b.organization_id = m.organization_id
       WHERE b.id = $1 AND m.status = 'Active' RETURNING 1)
     SELECT count(*)::int AS n FROM created`,
  (seed, fresh) => [
    seed.businessId,
    `Delivery plan ${plan(fresh).code} is on its way.`,
    plan(fresh).id,
    `/api/v1/plans/${plan(fresh).id}`,
  ],
)
const announce = statement(
  'announce',
  () => 'SELECT pg_notify($1, $2)',
  (seed) => [NOTIFICATION_CHANNEL, JSON.stringify({ schema: seed.schemaName, businessId: seed.businessId })],
)
const dispatchEvents = eventsStatement('dispatch', (_seed, fresh) => {
  const planId = plan(fresh).id
  const costs = new Map(issued(fresh).map((l) => [l.id, Number(l.unit_cost)]))
  const ofShipment = { entityType: 'Shipment', resourceField: 'shipmentId' }
  const ofOrder = { entityType: 'Order', resourceField: 'orderId' }
  const events: BenchEvent[] = []
  for (const shipment of moved(fresh)) {
    const carried = lines(fresh).filter((l) => l.shipment_id === shipment.id)
    events.push({
      action: 'ShipmentDispatched',
      type: 'shipment.dispatched',
      ...ofShipment,
      payload: {
        shipmentId: shipment.id,
        code: shipment.code,
        deliveryPlanId: planId,
        orderId: carried[0]?.order_id ?? null,
        lines: carried.map((l) => ({
          productId: l.product_id,
          quantity: Number(l.quantity),
          unitCost: costs.get(l.id) ?? 0,
        })),
      },
    })
  }
  const before = new Map(lockedOrders(fresh).map((o) => [o.id, o.status]))
  for (const order of fulfilled(fresh))
    events.push({
      action: 'OrderStatusChanged',
      type: 'order.status_changed',
      ...ofOrder,
      payload: {
        orderId: order.id,
        code: order.code,
        customerId: order.customer_id,
        from: before.get(order.id),
        to: order.status,
      },
    })
  for (const shipment of moved(fresh))
    events.push({
      action: 'ShipmentStatusChanged',
      type: 'shipment.status_changed',
      ...ofShipment,
      payload: {
        shipmentId: shipment.id,
        code: shipment.code,
        deliveryPlanId: planId,
        from: shipment.from,
        to: 'InTransit',
      },
    })
  events.push({
    action: 'PlanDispatched',
    type: 'delivery_plan.dispatched',
    entityType: 'DeliveryPlan',
    resourceField: 'deliveryPlanId',
    payload: { deliveryPlanId: planId, code: plan(fresh).code },
  })
  return events
})
// The plan and its shipments in stop order, one row per shipment.
const readPlan = statement(
  'read',
  (s) =>
    `SELECT p.id AS plan_id, p.business_id AS plan_business_id, p.code AS plan_code, p.name AS plan_name,
       p.status AS plan_status, to_char(p.scheduled_date, 'YYYY-MM-DD') AS plan_scheduled_date, p.vehicle_id, p.driver_name,
       p.carrier_id, p.delivery_zone_ids, p.depot, p.distance_km, p.notes AS plan_notes, p.scheduled_at,
       p.dispatched_at AS plan_dispatched_at, p.completed_at, p.cancelled_at AS plan_cancelled_at, p.autobatched_at,
       p.date_created AS plan_date_created, p.date_modified AS plan_date_modified, s.*
     FROM "${s}".delivery_plans p LEFT JOIN "${s}".shipments s ON s.delivery_plan_id = p.id
     WHERE p.business_id = $1 AND p.id = $2 ORDER BY s.stop_sequence NULLS LAST, s.code`,
  (seed, fresh) => [seed.businessId, baselinePlan(seed, fresh)],
)

type PlanRead = Record<string, unknown> & ShipmentRow
function planResponse(rows: readonly PlanRead[]) {
  const first = rows[0] as Record<string, unknown>
  const p = (name: string) => first[`plan_${name}`]
  const row = {
    id: p('id'),
    business_id: p('business_id'),
    code: p('code'),
    name: p('name'),
    status: p('status'),
    scheduled_date: p('scheduled_date'),
    vehicle_id: first.vehicle_id,
    driver_name: first.driver_name,
    carrier_id: first.carrier_id,
    delivery_zone_ids: first.delivery_zone_ids,
    depot: first.depot,
    distance_km: first.distance_km,
    notes: p('notes'),
    scheduled_at: first.scheduled_at,
    dispatched_at: p('dispatched_at'),
    completed_at: first.completed_at,
    cancelled_at: p('cancelled_at'),
    autobatched_at: first.autobatched_at,
    date_created: p('date_created'),
    date_modified: p('date_modified'),
  } as unknown as PlanRow
  return single('core', toPlan(row, rows[0]?.id ? rows : []))
}

const dispatchScenario: Scenario = {
  name: 'dispatch-plan-50x5',
  kind: 'write',
  // Each dispatch writes 250 entries of the same 50 products: they run one at a time, a few a
  // second, so rounds of 8 s, and 2 connections (one waiting while the other runs).
  minRoundSeconds: 8,
  connections: 2,
  cartage: {
    api: 'core',
    method: 'POST',
    sequential: true,
    path: (seed, n) => `/api/v1/plans/${n < DISPATCH_PLANS ? dispatchPlan(seed, n) : NIL}/dispatch`,
    headers: bearerHeaders,
    check: (json) =>
      field(field(json, 'data'), 'status') === 'Dispatched' &&
      (field(field(json, 'data'), 'shipments') as unknown[]).length === PLAN_SHIPMENTS,
  },
  baseline: {
    steps: [
      [raw('begin')],
      [lockPlan],
      [moveShipments],
      [readLines],
      [lockOrders],
      [lockProducts],
      [insertEntries],
      [revalue],
      [updateStock],
      [setIssued],
      [consumeReservations],
      [moveOrders],
      [traceOrders],
      [planDispatched],
      [trackingLinks],
      [notify],
      [announce],
      [dispatchEvents],
      [readPlan],
      [raw('commit')],
    ],
    oneConnection: true,
    rows: [0, 1, 50, LINES, 50, 50, 50, 50, 0, LINES, 0, 50, 0, 0, 0, 1, 1, 0, 50, 0],
    respond: (results) => planResponse(results.at(-2) as PlanRead[]),
  },
}

export const dispatchScenarios: Scenario[] = [dispatchScenario]
