import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

export interface FiguresRow {
  by_status: Record<string, number>
  open_count: string
  overdue_count: string
  open_values: { currency: string; count: number; total: number; outstanding: number }[]
}

/**
 * The business's purchase order figures in one statement: counts per status, the open orders
 * (Submitted, PartiallyReceived), those past their expected date, and per currency what they
 * total and what is still to come.
 */
export async function purchaseOrderFigures(db: Executor, schema: string, businessId: string) {
  const orders = sql.table(`${schema}.purchase_orders`)
  const { rows } = await sql<FiguresRow>`
    WITH po AS (
      SELECT p.id, p.status, p.currency, p.total,
        p.status IN ('Submitted', 'PartiallyReceived') AS open,
        p.expected_date < (now() AT TIME ZONE b.timezone)::date AS late
      FROM ${orders} p JOIN ${sql.table(`${schema}.businesses`)} b ON b.id = p.business_id
      WHERE p.business_id = ${businessId}
    )
    SELECT
      (SELECT coalesce(json_object_agg(status, n), '{}') FROM (SELECT status, count(*) AS n FROM po GROUP BY status) s) AS by_status,
      (SELECT count(*) FROM po WHERE open) AS open_count,
      (SELECT count(*) FROM po WHERE open AND late) AS overdue_count,
      (SELECT coalesce(json_agg(v ORDER BY v.currency), '[]') FROM (
        SELECT po.currency, count(*) AS count, sum(po.total) AS total,
          round(coalesce(sum((SELECT sum(greatest(l.quantity - l.received_quantity, 0) * l.unit_cost)
            FROM ${sql.table(`${schema}.purchase_order_lines`)} l WHERE l.purchase_order_id = po.id)), 0), 4) AS outstanding
        FROM po WHERE open GROUP BY po.currency) v) AS open_values`.execute(db)
  return rows[0]!
}
