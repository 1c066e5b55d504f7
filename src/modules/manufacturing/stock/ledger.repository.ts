import { type RawBuilder, sql, type Transaction } from 'kysely'
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

/** What one re-valuation found (see the migration that creates `stock_revalue`). */
export interface Revaluation {
  /** how many entries were re-valued: the earliest new one and every one after it */
  revalued: number
  /** the entry at the starting point: its balance, the average after it and the unit cost it moved at (exact) */
  first_balance: string | null
  first_average: string | null
  first_unit_cost: string | null
  /** the product's stock after its last entry */
  last_balance: string | null
  last_average: string | null
  last_value: string | null
  /** last_average and last_value rounded as the API shows them (10 and 4 places) */
  shown_average: string | null
  shown_value: string | null
  /** the first entry at or after the checked point whose balance is below zero, if any */
  short_id: string | null
  short_date: Date | null
  short_balance: string | null
}

/** A point in the ledger's (effective_date, seq) order. */
export interface LedgerKey {
  effective_date: Date
  seq: string
}

/** Where one product's re-valuation starts, and from where its balances may not fall below zero. */
export interface ProductStart {
  product_id: string
  /** the earliest of its new entries in ledger order */
  from: LedgerKey
  /** the earliest of its new entries that takes stock out, if any */
  check: LedgerKey | null
}

/**
 * Inserts the entries (of one or many products) in one statement, in the order given, so `seq`
 * follows it: entries of one instant keep the order they were sent in. Returns, per product, the
 * earliest of its new entries in ledger order (where re-valuation must start) and the earliest that
 * takes stock out (from where no balance may fall below zero).
 */
export async function insertEntries(
  trx: Transaction<Tables>,
  schema: string,
  entries: readonly NewEntry[],
): Promise<ProductStart[]> {
  const column = <K extends keyof NewEntry>(key: K) => entries.map((e) => e[key])
  const { rows } = await sql<{
    product_id: string
    from_date: Date
    from_seq: string
    check_date: Date | null
    check_seq: string | null
  }>`
    WITH ins AS (
      INSERT INTO ${ledger(schema)} (id, business_id, product_id, type, quantity, received_cost, effective_date,
        reason, reference, work_order_id, created_by_user_id)
      SELECT x.id, x.business_id, x.product_id, x.type, x.quantity, x.received_cost, x.effective_date,
        x.reason, x.reference, x.work_order_id, x.created_by_user_id
      FROM unnest(${column('id')}::uuid[], ${column('business_id')}::uuid[], ${column('product_id')}::uuid[],
        ${column('type')}::text[], ${column('quantity')}::numeric[], ${column('received_cost')}::numeric[],
        ${column('effective_date')}::timestamptz[], ${column('reason')}::text[], ${column('reference')}::text[],
        ${column('work_order_id')}::uuid[], ${column('created_by_user_id')}::uuid[])
        WITH ORDINALITY AS x(id, business_id, product_id, type, quantity, received_cost, effective_date,
          reason, reference, work_order_id, created_by_user_id, n)
      ORDER BY x.n
      RETURNING product_id, effective_date, seq, quantity
    )
    SELECT f.product_id, f.effective_date AS from_date, f.seq AS from_seq, c.effective_date AS check_date,
      c.seq AS check_seq
    FROM (SELECT DISTINCT ON (product_id) product_id, effective_date, seq FROM ins
          ORDER BY product_id, effective_date, seq) f
    LEFT JOIN (SELECT DISTINCT ON (product_id) product_id, effective_date, seq FROM ins WHERE quantity < 0
               ORDER BY product_id, effective_date, seq) c
      ON c.product_id = f.product_id`.execute(trx)
  return rows.map((row) => ({
    product_id: row.product_id,
    from: { effective_date: row.from_date, seq: row.from_seq },
    check:
      row.check_date === null || row.check_seq === null
        ? null
        : { effective_date: row.check_date, seq: row.check_seq },
  }))
}

/**
 * Re-values each product from its start to its last entry in one pass and replaces its checkpoints
 * after that point (`stock_revalue`, once per product, all in one statement), the caller holding
 * the products' row locks. With a start's `check`, reports the first entry from there whose
 * balance is below zero; with `stopAtShortfall` that product's re-valuation then writes nothing.
 * Results come in the order of `starts`.
 */
export async function revalue(
  trx: Transaction<Tables>,
  schema: string,
  starts: readonly ProductStart[],
  stopAtShortfall: boolean,
): Promise<(Revaluation & { product_id: string })[]> {
  const { rows } = await sql<Revaluation & { product_id: string }>`
    SELECT x.product_id, r.revalued, r.first_balance, r.first_average, r.first_unit_cost, r.last_balance,
      r.last_average, r.last_value, round(r.last_average, 10) AS shown_average,
      round(r.last_value, 4) AS shown_value, r.short_id, r.short_date, r.short_balance
    FROM unnest(${sql.val(starts.map((s) => s.product_id))}::uuid[],
        ${sql.val(starts.map((s) => s.from.effective_date))}::timestamptz[],
        ${sql.val(starts.map((s) => s.from.seq))}::bigint[],
        ${sql.val(starts.map((s) => s.check?.effective_date ?? null))}::timestamptz[],
        ${sql.val(starts.map((s) => s.check?.seq ?? null))}::bigint[])
      WITH ORDINALITY AS x(product_id, from_date, from_seq, check_date, check_seq, n)
    CROSS JOIN LATERAL ${sql.table(`${schema}.stock_revalue`)}(x.product_id, x.from_date, x.from_seq,
      x.check_date, x.check_seq, ${stopAtShortfall}) r
    ORDER BY x.n`.execute(trx)
  return rows
}

/**
 * Of the entries `ids` (of one product), the last in ledger order at or before the entry
 * `entryId`: which of a batch's outgoing rows a shortfall at an older entry is blamed on.
 */
export async function lastOutgoingAtOrBefore(
  db: Executor,
  schema: string,
  productId: string,
  ids: readonly string[],
  entryId: string,
): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`
    SELECT o.id FROM ${ledger(schema)} o
    JOIN ${ledger(schema)} s ON s.id = ${entryId}::uuid
    WHERE o.product_id = ${productId}::uuid AND o.id = ANY(${sql.val(ids)}::uuid[])
      AND (o.effective_date, o.seq) <= (s.effective_date, s.seq)
    ORDER BY o.effective_date DESC, o.seq DESC LIMIT 1`.execute(db)
  return rows[0]?.id
}

/**
 * The stock of one product of the business as of an instant: the checkpoint before it and at most
 * 64 entries (exported for the bench). The average and the value are rounded here, for the wire
 * only (10 and 4 places).
 */
export function stockAsOfQuery(schema: string, businessId: string, productId: string, asOf: Date) {
  return sql<{
    id: string
    type: string
    balance: string | null
    average_cost: string | null
    stock_value: string | null
  }>`
    SELECT p.id, p.type, s.balance, round(s.average_cost, 10) AS average_cost, round(s.stock_value, 4) AS stock_value
    FROM ${sql.table(`${schema}.products`)} p
    LEFT JOIN LATERAL ${sql.table(`${schema}.stock_state_at`)}(p.id, ${asOf}::timestamptz) s ON true
    WHERE p.id = ${productId} AND p.business_id = ${businessId}`
}

/**
 * The moving-average cost of `product` as of `asOf`, as an SQL expression for a query of many
 * products (the BOM cost): the checkpoint at or before that instant when no entry lies between
 * them (two index lookups, no function call), else `stock_state_at`. Null before the first entry.
 */
export function averageCostAt(schema: string, product: RawBuilder<unknown>, asOf: Date) {
  return sql<string | null>`coalesce(
    (SELECT CASE WHEN NOT EXISTS (
        SELECT 1 FROM ${ledger(schema)} l WHERE l.product_id = k.product_id
          AND (l.effective_date, l.seq) > (k.effective_date, k.seq) AND l.effective_date <= ${asOf})
      THEN k.average_cost END
     FROM (SELECT * FROM ${sql.table(`${schema}.stock_checkpoints`)} k
           WHERE k.product_id = ${product} AND k.effective_date <= ${asOf}
           ORDER BY k.effective_date DESC, k.seq DESC LIMIT 1) k),
    (SELECT s.average_cost FROM ${sql.table(`${schema}.stock_state_at`)}(${product}, ${asOf}::timestamptz) s))`
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
 * of its balance at that date and the lowest balance after it (`stock_available_at`).
 */
export async function availableAt(db: Executor, schema: string, productIds: readonly string[], date: Date) {
  if (productIds.length === 0) return new Map<string, number>()
  const { rows } = await sql<{ id: string; available: string }>`
    SELECT p.id, ${sql.table(`${schema}.stock_available_at`)}(p.id, ${date}::timestamptz) AS available
    FROM unnest(${sql.val(productIds)}::uuid[]) AS p(id)`.execute(db)
  return new Map(rows.map((r) => [r.id, Number(r.available)]))
}

/** The running values after entries of one product and the unit cost each moved at, as shown (10 and 4 places). */
export interface EntryValues {
  balance: string
  average_cost: string
  unit_cost: string
  value: string
}

/** The values of the entries `ids` of one product, each folded from the checkpoint before it. */
export async function entryValues(
  db: Executor,
  schema: string,
  productId: string,
  ids: readonly string[],
): Promise<Map<string, EntryValues>> {
  if (ids.length === 0) return new Map()
  const { rows } = await sql<EntryValues & { id: string }>`
    SELECT v.id, v.balance, round(v.average_cost, 10) AS average_cost, round(v.unit_cost, 10) AS unit_cost,
      round(v.entry_value, 4) AS value
    FROM ${sql.table(`${schema}.stock_entry_values`)}(${productId}::uuid, ${sql.val(ids)}::uuid[]) v`.execute(
    db,
  )
  return new Map(rows.map(({ id, ...values }) => [id, values]))
}

/** `entryValues` of entries of several products in one statement (stock_entry_values once per product). */
export async function entryValuesOfMany(
  db: Executor,
  schema: string,
  entries: readonly { productId: string; entryId: string }[],
): Promise<Map<string, EntryValues>> {
  if (entries.length === 0) return new Map()
  const { rows } = await sql<EntryValues & { id: string }>`
    SELECT v.id, v.balance, round(v.average_cost, 10) AS average_cost, round(v.unit_cost, 10) AS unit_cost,
      round(v.entry_value, 4) AS value
    FROM (SELECT e.product_id, array_agg(e.entry_id) AS ids
          FROM unnest(${sql.val(entries.map((e) => e.productId))}::uuid[],
                      ${sql.val(entries.map((e) => e.entryId))}::uuid[]) AS e(product_id, entry_id)
          GROUP BY e.product_id) g
    CROSS JOIN LATERAL ${sql.table(`${schema}.stock_entry_values`)}(g.product_id, g.ids) v`.execute(db)
  return new Map(rows.map(({ id, ...values }) => [id, values]))
}
