import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

/** Orders that count as sales: confirmed by the business (Draft is unsent, Cancelled never happened). */
const COUNTED = sql`('Confirmed', 'PartiallyFulfilled', 'Fulfilled')`

/**
 * The business's currency, but only when the customer is a live customer of the business: no row
 * means 404. Shared by both statements so each is a single round trip.
 */
const scope = (schema: string, businessId: string, customerId: string) => sql`
  scope AS (
    SELECT b.currency
    FROM ${sql.table(`${schema}.businesses`)} b
    JOIN ${sql.table(`${schema}.customers`)} cu ON cu.business_id = b.id
    WHERE b.id = ${businessId} AND cu.id = ${customerId} AND cu.deleted_at IS NULL
  )`

export interface KpiRow {
  currency: string
  order_count: number | null
  revenue: string | null
  average: string | null
  first_order: Date | null
  last_order: Date | null
  rank_volume: number | null
  rank_spend: number | null
  ranked_customers: number
  deliveries: number
  fulfillment_cost: string
  orders_by_status: Record<string, number>
}

/**
 * KPIs of one customer in one statement: the business's counted orders are aggregated per live
 * customer, ranked with dense_rank() window functions, and the customer's row picked out.
 */
export async function kpiMetrics(db: Executor, schema: string, businessId: string, customerId: string) {
  const { rows } = await sql<KpiRow>`
    WITH ${scope(schema, businessId, customerId)},
    per_customer AS (
      SELECT o.customer_id,
        count(*) AS order_count,
        count(*) FILTER (WHERE o.currency = scope.currency) AS currency_orders,
        coalesce(sum(o.total) FILTER (WHERE o.currency = scope.currency), 0) AS revenue,
        min(o.order_date) AS first_order,
        max(o.order_date) AS last_order
      FROM ${sql.table(`${schema}.orders`)} o
      CROSS JOIN scope
      JOIN ${sql.table(`${schema}.customers`)} c
        ON c.id = o.customer_id AND c.business_id = o.business_id AND c.deleted_at IS NULL
      WHERE o.business_id = ${businessId} AND o.status IN ${COUNTED}
      GROUP BY o.customer_id
    ),
    ranked AS (
      SELECT *,
        dense_rank() OVER (ORDER BY order_count DESC) AS rank_volume,
        dense_rank() OVER (ORDER BY revenue DESC) AS rank_spend
      FROM per_customer
    )
    SELECT scope.currency, r.order_count, r.revenue, r.first_order, r.last_order,
      round(r.revenue / nullif(r.currency_orders, 0), 4) AS average,
      r.rank_volume, r.rank_spend,
      (SELECT count(*) FROM per_customer) AS ranked_customers,
      (SELECT count(*) FROM ${sql.table(`${schema}.shipments`)} s
        WHERE s.business_id = ${businessId} AND s.customer_id = ${customerId} AND s.status = 'Delivered') AS deliveries,
      (SELECT coalesce(sum(s.fulfillment_cost), 0) FROM ${sql.table(`${schema}.shipments`)} s
        WHERE s.business_id = ${businessId} AND s.customer_id = ${customerId} AND s.status <> 'Cancelled') AS fulfillment_cost,
      (SELECT coalesce(json_object_agg(x.status, x.n ORDER BY x.status), '{}')
        FROM (SELECT o.status, count(*) AS n FROM ${sql.table(`${schema}.orders`)} o
          WHERE o.business_id = ${businessId} AND o.customer_id = ${customerId} GROUP BY o.status) x) AS orders_by_status
    FROM scope
    LEFT JOIN ranked r ON r.customer_id = ${customerId}
  `.execute(db)
  return rows[0]
}

export interface SalesRow {
  currency: string
  month: string
  order_count: number
  revenue: string
  total_orders: string
  total_revenue: string
  average: string | null
}

/**
 * The customer's counted orders per calendar month (UTC) over the last 12 months, the current one
 * included: generate_series gives every month, so months without orders come back as 0. The
 * 12-month totals come from window sums on the same statement.
 */
export async function salesByMonth(db: Executor, schema: string, businessId: string, customerId: string) {
  const { rows } = await sql<SalesRow>`
    WITH ${scope(schema, businessId, customerId)},
    months AS (
      SELECT generate_series(
        date_trunc('month', now() AT TIME ZONE 'UTC') - interval '11 months',
        date_trunc('month', now() AT TIME ZONE 'UTC'),
        interval '1 month'
      ) AS start
    ),
    per_month AS (
      SELECT m.start, scope.currency,
        count(o.id) AS order_count,
        count(o.id) FILTER (WHERE o.currency = scope.currency) AS currency_orders,
        coalesce(sum(o.total) FILTER (WHERE o.currency = scope.currency), 0) AS revenue
      FROM months m
      CROSS JOIN scope
      LEFT JOIN ${sql.table(`${schema}.orders`)} o
        ON o.business_id = ${businessId} AND o.customer_id = ${customerId} AND o.status IN ${COUNTED}
        AND o.order_date >= (m.start AT TIME ZONE 'UTC')
        AND o.order_date < ((m.start + interval '1 month') AT TIME ZONE 'UTC')
      GROUP BY m.start, scope.currency
    )
    SELECT currency, to_char(start, 'YYYY-MM') AS month, order_count, revenue,
      sum(order_count) OVER () AS total_orders,
      sum(revenue) OVER () AS total_revenue,
      round(sum(revenue) OVER () / nullif(sum(currency_orders) OVER (), 0), 4) AS average
    FROM per_month
    ORDER BY start
  `.execute(db)
  return rows
}
