import { type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'
import { PLAN_STATUSES, SHIPMENT_STATUSES } from '../../delivery/index.js'
import { ORDER_STATUSES } from '../../sales/index.js'
import { DEFAULT_DAYS, type Granularity } from './dashboard.schemas.js'

/** Orders that count as sales: confirmed by the business (Draft is unsent, Cancelled never happened). */
const COUNTED = sql`('Confirmed', 'PartiallyFulfilled', 'Fulfilled')`

export interface RangeInput {
  schema: string
  businessId: string
  from: string | null
  to: string | null
  maxDays: number
}

/** What every statement returns first: the resolved range, and whether it is allowed. */
export interface RangeRow {
  time_zone: string
  currency: string
  from_day: string
  to_day: string
  days: number
  ok: boolean
}

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/**
 * The range in the business's time zone, resolved inside the statement so that defaults ("today"
 * there) cost no extra round trip. `bounds` has a row only when the range is allowed, so a refused
 * range reads nothing; its instants are the local midnights that open and close the range.
 */
const rangeCtes = ({ schema, businessId, from, to, maxDays }: RangeInput) => sql`
  biz AS (
    SELECT b.timezone AS tz, b.currency,
      coalesce(${to}::date, (now() AT TIME ZONE b.timezone)::date) AS to_day
    FROM ${table(schema, 'businesses')} b WHERE b.id = ${businessId}
  ),
  r AS (
    SELECT tz, currency, to_day, coalesce(${from}::date, to_day - ${sql.lit(DEFAULT_DAYS - 1)}) AS from_day FROM biz
  ),
  range AS (
    SELECT tz, currency, from_day, to_day, to_day - from_day + 1 AS days,
      from_day <= to_day AND to_day - from_day + 1 <= ${maxDays}::int AS ok
    FROM r
  ),
  bounds AS (
    SELECT range.*,
      (from_day::timestamp AT TIME ZONE tz) AS cur_start,
      ((to_day + 1)::timestamp AT TIME ZONE tz) AS cur_end,
      ((from_day - days)::timestamp AT TIME ZONE tz) AS prev_start
    FROM range WHERE ok
  )`

const rangeColumns = sql`range.tz AS time_zone, range.currency, to_char(range.from_day, 'YYYY-MM-DD') AS from_day,
  to_char(range.to_day, 'YYYY-MM-DD') AS to_day, range.days, range.ok`

/** One count per status, every status present (0 included), as a JSON object. */
const byStatus = (
  statuses: readonly string[],
  filter: RawBuilder<unknown>,
  counted: RawBuilder<unknown> = sql`count(*)`,
) =>
  sql`json_build_object(${sql.join(
    statuses.map(
      (s) =>
        sql`${sql.lit(s)}::text, coalesce(${counted} FILTER (WHERE ${filter} AND status = ${sql.lit(s)}), 0)`,
    ),
  )})`

export interface SummaryRow extends RangeRow {
  previous_from: string | null
  previous_to: string | null
  order_count: string
  order_count_prev: string
  revenue: string
  revenue_prev: string
  currency_orders: string
  orders_by_status: Record<string, number>
  shipment_count: string
  shipment_count_prev: string
  shipments_by_status: Record<string, number>
  delivered: string
  delivered_prev: string
  rated: string
  rated_prev: string
  on_time: string
  on_time_prev: string
  plan_count: string
  plan_count_prev: string
  plans_by_status: Record<string, number>
  transfers_out: string
  transfers_out_value: string
  transfers_in: string
  transfers_in_value: string
  ordered_units: string
  filled_units: string
  otif_rated: string
  otif_orders: string
  shipped_revenue: string
  shipped_revenue_prev: string
  backordered_orders: string
  backordered_lines: string
  backordered_units: string
  returns_credited: string
  returned_value: string
}

/**
 * The whole dashboard summary in one statement: each source is read once over the current and the
 * previous period together (one index range). Shipments are first grouped into a handful of rows
 * (status x period), which costs far less than evaluating every FILTER on every row. Orders by orderDate, shipments by
 * creation, deliveries by deliveredAt, plans by their scheduled day.
 */
export async function summary(db: Executor, input: RangeInput) {
  const { schema, businessId } = input
  const cur = (column: string) => sql`${sql.ref(column)} >= bounds.cur_start`
  const { rows } = await sql<SummaryRow>`
    WITH ${rangeCtes(input)},
    o AS (
      SELECT
        count(*) FILTER (WHERE ${cur('o.order_date')} AND o.status IN ${COUNTED}) AS order_count,
        count(*) FILTER (WHERE NOT ${cur('o.order_date')} AND o.status IN ${COUNTED}) AS order_count_prev,
        count(*) FILTER (WHERE ${cur('o.order_date')} AND o.status IN ${COUNTED} AND o.currency = bounds.currency) AS currency_orders,
        coalesce(sum(o.total) FILTER (WHERE ${cur('o.order_date')} AND o.status IN ${COUNTED} AND o.currency = bounds.currency), 0) AS revenue,
        coalesce(sum(o.total) FILTER (WHERE NOT ${cur('o.order_date')} AND o.status IN ${COUNTED} AND o.currency = bounds.currency), 0) AS revenue_prev,
        ${byStatus(ORDER_STATUSES, cur('o.order_date'))} AS orders_by_status
      FROM bounds
      JOIN ${table(schema, 'orders')} o ON o.business_id = ${businessId}
        AND o.order_date >= bounds.prev_start AND o.order_date < bounds.cur_end
    ),
    s_groups AS (
      SELECT s.status, ${cur('s.date_created')} AS cur, count(*) AS n
      FROM bounds
      JOIN ${table(schema, 'shipments')} s ON s.business_id = ${businessId}
        AND s.date_created >= bounds.prev_start AND s.date_created < bounds.cur_end
      GROUP BY 1, 2
    ),
    s AS (
      SELECT
        coalesce(sum(n) FILTER (WHERE cur), 0) AS shipment_count,
        coalesce(sum(n) FILTER (WHERE NOT cur), 0) AS shipment_count_prev,
        ${byStatus(SHIPMENT_STATUSES, sql`cur`, sql`sum(n)`)} AS shipments_by_status
      FROM s_groups
    ),
    d_groups AS (
      SELECT ${cur('s.delivered_at')} AS cur, s.scheduled_date IS NOT NULL AS rated,
        coalesce((s.delivered_at AT TIME ZONE bounds.tz)::date <= (s.scheduled_date AT TIME ZONE bounds.tz)::date, false) AS on_time,
        count(*) AS n
      FROM bounds
      JOIN ${table(schema, 'shipments')} s ON s.business_id = ${businessId} AND s.status = 'Delivered'
        AND s.delivered_at >= bounds.prev_start AND s.delivered_at < bounds.cur_end
      GROUP BY 1, 2, 3
    ),
    d AS (
      SELECT
        coalesce(sum(n) FILTER (WHERE cur), 0) AS delivered,
        coalesce(sum(n) FILTER (WHERE NOT cur), 0) AS delivered_prev,
        coalesce(sum(n) FILTER (WHERE cur AND rated), 0) AS rated,
        coalesce(sum(n) FILTER (WHERE NOT cur AND rated), 0) AS rated_prev,
        coalesce(sum(n) FILTER (WHERE cur AND on_time), 0) AS on_time,
        coalesce(sum(n) FILTER (WHERE NOT cur AND on_time), 0) AS on_time_prev
      FROM d_groups
    ),
    p AS (
      SELECT
        count(*) FILTER (WHERE p.scheduled_date >= bounds.from_day) AS plan_count,
        count(*) FILTER (WHERE p.scheduled_date < bounds.from_day) AS plan_count_prev,
        ${byStatus(PLAN_STATUSES, sql`p.scheduled_date >= bounds.from_day`)} AS plans_by_status
      FROM bounds
      JOIN ${table(schema, 'delivery_plans')} p ON p.business_id = ${businessId}
        AND p.scheduled_date >= bounds.from_day - bounds.days AND p.scheduled_date <= bounds.to_day
    ),
    t AS (
      SELECT
        count(DISTINCT tr.id) FILTER (WHERE tr.source_business_id = ${businessId}) AS transfers_out,
        coalesce(round(sum((l.quantity - l.quantity_received) * l.unit_cost)
          FILTER (WHERE tr.source_business_id = ${businessId}), 4), 0) AS transfers_out_value,
        count(DISTINCT tr.id) FILTER (WHERE tr.destination_business_id = ${businessId}) AS transfers_in,
        coalesce(round(sum((l.quantity - l.quantity_received) * l.unit_cost)
          FILTER (WHERE tr.destination_business_id = ${businessId}), 4), 0) AS transfers_in_value
      FROM ${table(schema, 'transfer_orders')} tr
      JOIN ${table(schema, 'transfer_order_lines')} l ON l.transfer_order_id = tr.id
      WHERE tr.status IN ('Shipped', 'PartiallyReceived')
        AND (tr.source_business_id = ${businessId} OR tr.destination_business_id = ${businessId})
    )
    ${fulfilmentCtes(schema, businessId)}
    SELECT ${rangeColumns},
      to_char(range.from_day - range.days, 'YYYY-MM-DD') AS previous_from,
      to_char(range.from_day - 1, 'YYYY-MM-DD') AS previous_to,
      o.*, s.*, d.*, p.*, t.*, fill.*, otif.*, sr.*, bo.*, rt.*
    FROM range, o, s, d, p, t, fill, otif, sr, bo, rt
  `.execute(db)
  return rows[0]
}

/** A shipment line whose goods left the stock and have not come back. */
const ISSUED = sql`l.ledger_entry_id IS NOT NULL AND l.returned_entry_id IS NULL`

/**
 * The fulfilment figures, as CTEs after the summary's: fill rate and on time in full over the
 * counted orders of the range, revenue from what was dispatched in the range (and the previous
 * one), the backorders open now, and the returns credited (received or written off) in the range.
 */
const fulfilmentCtes = (schema: string, businessId: string) => sql`,
    counted_orders AS (
      SELECT o.id FROM bounds
      JOIN ${table(schema, 'orders')} o ON o.business_id = ${businessId}
        AND o.order_date >= bounds.cur_start AND o.order_date < bounds.cur_end AND o.status IN ${COUNTED}
    ),
    fill AS (
      SELECT coalesce(sum(ol.quantity), 0) AS ordered_units,
        coalesce(sum(least(ol.quantity, x.shipped)), 0) AS filled_units
      FROM counted_orders co
      JOIN ${table(schema, 'order_lines')} ol ON ol.order_id = co.id AND ol.product_id IS NOT NULL
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(l.quantity), 0) AS shipped FROM ${table(schema, 'shipment_lines')} l
        WHERE l.order_line_id = ol.id AND ${ISSUED}
      ) x
    ),
    otif AS (
      SELECT count(*) AS otif_rated, count(*) FILTER (WHERE lines.in_full AND ship.on_time) AS otif_orders
      FROM bounds, counted_orders co
      CROSS JOIN LATERAL (
        SELECT bool_and(coalesce(x.delivered, 0) >= ol.quantity) AS in_full
        FROM ${table(schema, 'order_lines')} ol
        CROSS JOIN LATERAL (
          SELECT sum(l.quantity) AS delivered FROM ${table(schema, 'shipment_lines')} l
          JOIN ${table(schema, 'shipments')} s ON s.id = l.shipment_id AND s.status = 'Delivered'
          WHERE l.order_line_id = ol.id
        ) x
        WHERE ol.order_id = co.id AND ol.product_id IS NOT NULL
      ) lines
      CROSS JOIN LATERAL (
        SELECT count(*) AS delivered,
          coalesce(bool_and(s.scheduled_date IS NULL
            OR (s.delivered_at AT TIME ZONE bounds.tz)::date <= (s.scheduled_date AT TIME ZONE bounds.tz)::date), true) AS on_time
        FROM ${table(schema, 'shipments')} s WHERE s.order_id = co.id AND s.status = 'Delivered'
      ) ship
      WHERE ship.delivered > 0 AND lines.in_full IS NOT NULL
    ),
    sr AS (
      SELECT
        coalesce(sum(l.quantity * ol.unit_price) FILTER (WHERE s.dispatched_at >= bounds.cur_start), 0) AS shipped_revenue,
        coalesce(sum(l.quantity * ol.unit_price) FILTER (WHERE s.dispatched_at < bounds.cur_start), 0) AS shipped_revenue_prev
      FROM bounds
      JOIN ${table(schema, 'shipments')} s ON s.business_id = ${businessId}
        AND s.dispatched_at >= bounds.prev_start AND s.dispatched_at < bounds.cur_end
      JOIN ${table(schema, 'shipment_lines')} l ON l.shipment_id = s.id AND ${ISSUED}
      JOIN ${table(schema, 'order_lines')} ol ON ol.id = l.order_line_id
      JOIN ${table(schema, 'orders')} o ON o.id = ol.order_id AND o.currency = bounds.currency
    ),
    bo AS (
      SELECT count(DISTINCT r.order_id) AS backordered_orders, count(*) AS backordered_lines,
        coalesce(sum(r.backordered), 0) AS backordered_units
      FROM ${table(schema, 'stock_reservations')} r
      JOIN ${table(schema, 'orders')} o ON o.id = r.order_id AND o.status IN ('Confirmed', 'PartiallyFulfilled')
      WHERE r.business_id = ${businessId} AND r.backordered > 0
    ),
    rt AS (
      SELECT count(*) AS returns_credited, coalesce(sum(r.value), 0) AS returned_value
      FROM bounds
      JOIN ${table(schema, 'returns')} r ON r.business_id = ${businessId} AND r.status IN ('Received', 'WrittenOff')
        AND coalesce(r.received_at, r.written_off_at) >= bounds.cur_start
        AND coalesce(r.received_at, r.written_off_at) < bounds.cur_end
    )`

export interface VolumeRow extends RangeRow {
  bucket_start: string | null
  bucket_end: string | null
  count: string | null
}

export type VolumeSource = 'shipments' | 'plans'

const UNIT: Record<Granularity, string> = { Day: 'day', Week: 'week', Month: 'month' }

/**
 * A series with every bucket of the range (generate_series), each clipped to the range, and its
 * count read by one index range per bucket: cheaper than converting every row to local time and
 * grouping, and empty buckets come out as 0. Shipments count by creation instant between the
 * bucket's local midnights; plans (not Cancelled) by their scheduled day, already a local date.
 */
export async function volumes(
  db: Executor,
  input: RangeInput & { source: VolumeSource; granularity: Granularity },
) {
  const { schema, businessId } = input
  const unit = sql.lit(UNIT[input.granularity])
  const step = sql.lit(`1 ${UNIT[input.granularity]}`)
  const count =
    input.source === 'shipments'
      ? sql`(SELECT count(*) FROM ${table(schema, 'shipments')} s WHERE s.business_id = ${businessId}
          AND s.date_created >= (b.first_day::timestamp AT TIME ZONE b.tz)
          AND s.date_created < ((b.last_day + 1)::timestamp AT TIME ZONE b.tz))`
      : sql`(SELECT count(*) FROM ${table(schema, 'delivery_plans')} p WHERE p.business_id = ${businessId}
          AND p.scheduled_date >= b.first_day AND p.scheduled_date <= b.last_day AND p.status <> 'Cancelled')`
  const { rows } = await sql<VolumeRow>`
    WITH ${rangeCtes(input)},
    buckets AS (
      SELECT bounds.tz, g AS bucket,
        greatest(g::date, bounds.from_day) AS first_day,
        least((g + ${step}::interval)::date - 1, bounds.to_day) AS last_day
      FROM bounds, generate_series(date_trunc(${unit}, bounds.from_day::timestamp), bounds.to_day::timestamp, ${step}::interval) g
    )
    SELECT ${rangeColumns},
      to_char(b.first_day, 'YYYY-MM-DD') AS bucket_start,
      to_char(b.last_day, 'YYYY-MM-DD') AS bucket_end,
      ${count} AS count
    FROM range
    LEFT JOIN buckets b ON true
    ORDER BY b.bucket
  `.execute(db)
  return rows
}

export interface TopCustomerRow extends RangeRow {
  customer_id: string | null
  customer_code: string | null
  customer_name: string | null
  order_count: string | null
  revenue: string | null
  revenue_share: string | null
}

/**
 * Live customers ranked by revenue over the range (ties: more orders, then name, then id); the
 * share is of the business's revenue over the range from all counted orders.
 */
export async function topCustomers(db: Executor, input: RangeInput & { top: number }) {
  const { schema, businessId } = input
  const { rows } = await sql<TopCustomerRow>`
    WITH ${rangeCtes(input)},
    per_customer AS (
      SELECT o.customer_id, count(*) AS order_count,
        coalesce(sum(o.total) FILTER (WHERE o.currency = bounds.currency), 0) AS revenue
      FROM bounds
      JOIN ${table(schema, 'orders')} o ON o.business_id = ${businessId}
        AND o.order_date >= bounds.cur_start AND o.order_date < bounds.cur_end AND o.status IN ${COUNTED}
      GROUP BY o.customer_id
    ),
    total AS (SELECT sum(revenue) AS revenue FROM per_customer),
    ranked AS (
      SELECT c.id, c.code, c.name, pc.order_count, pc.revenue,
        round(pc.revenue / nullif(total.revenue, 0), 4) AS revenue_share
      FROM per_customer pc
      CROSS JOIN total
      JOIN ${table(schema, 'customers')} c
        ON c.id = pc.customer_id AND c.business_id = ${businessId} AND c.deleted_at IS NULL
      ORDER BY pc.revenue DESC, pc.order_count DESC, c.name, c.id
      LIMIT ${input.top}
    )
    SELECT ${rangeColumns}, ranked.id AS customer_id, ranked.code AS customer_code,
      ranked.name AS customer_name, ranked.order_count, ranked.revenue, ranked.revenue_share
    FROM range
    LEFT JOIN ranked ON true
    ORDER BY ranked.revenue DESC, ranked.order_count DESC, ranked.name, ranked.id
  `.execute(db)
  return rows
}
