import { sql, type Transaction } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor, Tables } from '../../../db/tables.js'

const ledger = (schema: string) => sql.table(`${schema}.stock_ledger`)

export interface NewEntry {
  id: string
  business_id: string
  product_id: string
  type: string
  /** signed */
  quantity: string
  /** the cost stated on a receipt (or a positive adjustment); null = at the moving average */
  received_cost: string | null
  effective_date: Date
  reason: string | null
  reference: string | null
  work_order_id: string | null
  created_by_user_id: string | null
}

export interface RecomputedEntry {
  id: string
  seq: string
  effective_date: Date
  balance: string
  unit_cost: string
}

/**
 * Inserts the entry, then recomputes the running balance, moving-average cost and (for outgoing
 * entries) the unit cost of it and of every later entry of the product, in (effective_date, seq)
 * order, in one UPDATE over a recursive walk. Each step finds the next entry through the
 * (product_id, effective_date, seq) index, so an entry at the end touches one row and a back-dated
 * one touches the entries after it. Average: receipts weigh in at their cost; everything else
 * moves at the average, which it leaves unchanged; a receipt into an empty (or negative) stock
 * sets the average to its cost. Returns the rewritten entries in order.
 */
export async function insertAndRevalue(trx: Transaction<Tables>, schema: string, entry: NewEntry) {
  const inserted = await sql<{ seq: string }>`
    INSERT INTO ${ledger(schema)} (id, business_id, product_id, type, quantity, received_cost, effective_date,
      reason, reference, work_order_id, created_by_user_id)
    VALUES (${entry.id}, ${entry.business_id}, ${entry.product_id}, ${entry.type}, ${entry.quantity},
      ${entry.received_cost}, ${entry.effective_date}, ${entry.reason}, ${entry.reference},
      ${entry.work_order_id}, ${entry.created_by_user_id})
    RETURNING seq`.execute(trx)
  const seq = inserted.rows[0]!.seq
  const product = entry.product_id
  const date = entry.effective_date
  const { rows } = await sql<RecomputedEntry>`
    WITH RECURSIVE walk AS (
      SELECT n.id, n.effective_date, n.seq, s.balance + n.quantity AS balance,
        CASE WHEN n.received_cost IS NOT NULL AND n.quantity > 0 THEN
          CASE WHEN s.balance <= 0 THEN n.received_cost
          ELSE round((s.balance * s.average_cost + n.quantity * n.received_cost) / (s.balance + n.quantity), 6) END
        ELSE s.average_cost END AS average_cost,
        CASE WHEN n.received_cost IS NOT NULL AND n.quantity > 0 THEN n.received_cost ELSE s.average_cost END AS unit_cost
      FROM (
        SELECT coalesce(p.balance, 0) AS balance, coalesce(p.average_cost, 0) AS average_cost
        FROM (SELECT 1) one
        LEFT JOIN LATERAL (
          SELECT balance, average_cost FROM ${ledger(schema)}
          WHERE product_id = ${product} AND (effective_date, seq) < (${date}::timestamptz, ${seq}::bigint)
          ORDER BY effective_date DESC, seq DESC LIMIT 1
        ) p ON true
      ) s
      CROSS JOIN LATERAL (
        SELECT id, effective_date, seq, quantity, received_cost FROM ${ledger(schema)}
        WHERE product_id = ${product} AND effective_date = ${date}::timestamptz AND seq = ${seq}::bigint
      ) n
      UNION ALL
      SELECT n.id, n.effective_date, n.seq, w.balance + n.quantity,
        CASE WHEN n.received_cost IS NOT NULL AND n.quantity > 0 THEN
          CASE WHEN w.balance <= 0 THEN n.received_cost
          ELSE round((w.balance * w.average_cost + n.quantity * n.received_cost) / (w.balance + n.quantity), 6) END
        ELSE w.average_cost END,
        CASE WHEN n.received_cost IS NOT NULL AND n.quantity > 0 THEN n.received_cost ELSE w.average_cost END
      FROM walk w
      CROSS JOIN LATERAL (
        SELECT id, effective_date, seq, quantity, received_cost FROM ${ledger(schema)}
        WHERE product_id = ${product} AND (effective_date, seq) > (w.effective_date, w.seq)
        ORDER BY effective_date, seq LIMIT 1
      ) n
    )
    UPDATE ${ledger(schema)} t
    SET balance = w.balance, average_cost = w.average_cost, unit_cost = w.unit_cost
    FROM walk w WHERE t.id = w.id
    RETURNING t.id, t.effective_date, t.seq, t.balance, t.unit_cost`.execute(trx)
  return rows.sort(
    (a, b) =>
      a.effective_date.getTime() - b.effective_date.getTime() || Number(BigInt(a.seq) - BigInt(b.seq)),
  )
}

/** The latest entry's values: the product's stock now. */
export async function latestValues(db: Executor, schema: string, productId: string) {
  const { rows } = await sql<{ balance: string; average_cost: string }>`
    SELECT balance, average_cost FROM ${ledger(schema)} WHERE product_id = ${productId}
    ORDER BY effective_date DESC, seq DESC LIMIT 1`.execute(db)
  return rows[0] ?? { balance: '0', average_cost: '0' }
}

/** The stock of one product of the business as of an instant: one indexed lookup (exported for the bench). */
export function stockAsOfQuery(schema: string, businessId: string, productId: string, asOf: Date) {
  return sql<{ id: string; type: string; balance: string | null; average_cost: string | null }>`
    SELECT p.id, p.type, l.balance, l.average_cost
    FROM ${sql.table(`${schema}.products`)} p
    LEFT JOIN LATERAL (
      SELECT balance, average_cost FROM ${ledger(schema)}
      WHERE product_id = p.id AND effective_date <= ${asOf}
      ORDER BY effective_date DESC, seq DESC LIMIT 1
    ) l ON true
    WHERE p.id = ${productId} AND p.business_id = ${businessId}`
}

/** The stock read is the hottest read of the module: compiled once per schema and run prepared. */
const stockAsOfStatement = new SchemaStatement(
  (db, schema, v: { businessId: string; productId: string; asOf: Date }) => ({
    compile: () => stockAsOfQuery(schema, v.businessId, v.productId, v.asOf).compile(db),
  }),
)

export async function stockAsOf(
  db: Executor,
  schema: string,
  businessId: string,
  productId: string,
  asOf: Date,
) {
  return stockAsOfStatement.takeFirst(db, schema, { businessId, productId, asOf })
}

/**
 * What each product could give at `date` without any point in time going below zero: the lower
 * of its balance at that date and the lowest balance after it.
 */
export async function availableAt(db: Executor, schema: string, productIds: readonly string[], date: Date) {
  if (productIds.length === 0) return new Map<string, number>()
  const { rows } = await sql<{ id: string; available: string }>`
    SELECT p.id, least(
      coalesce((SELECT balance FROM ${ledger(schema)} WHERE product_id = p.id AND effective_date <= ${date}
                ORDER BY effective_date DESC, seq DESC LIMIT 1), 0),
      coalesce((SELECT min(balance) FROM ${ledger(schema)} WHERE product_id = p.id AND effective_date > ${date}),
                'Infinity'::numeric)) AS available
    FROM unnest(${sql.val(productIds)}::uuid[]) AS p(id)`.execute(db)
  return new Map(rows.map((r) => [r.id, Number(r.available)]))
}
