import { type Insertable, sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { ReturnLineResponse } from './returns.schemas.js'
import type { ReturnLinesTable, ReturnsTable } from './returns.tables.js'

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/** A line as the JSON aggregate carries it: decimals still as text. */
export type LineJson = Omit<ReturnLineResponse, 'quantity' | 'unitPrice' | 'value' | 'unitCost'> & {
  quantity: string
  unitPrice: string
  value: string
  unitCost: string
}

/** The returns of one business, each with its lines (json_agg) and its order's code: one statement per read. */
export function scopedReturns(db: Executor, schema: string, businessId: string) {
  const lines = sql<LineJson[]>`coalesce((
    SELECT json_agg(json_build_object('id', l.id, 'lineNumber', l.line_number, 'productId', l.product_id,
      'sku', p.sku, 'name', p.name, 'quantity', l.quantity::text, 'shipmentId', sl.shipment_id,
      'shipmentLineId', l.shipment_line_id, 'orderLineId', l.order_line_id, 'unitPrice', l.unit_price::text,
      'value', l.value::text, 'unitCost', round(l.unit_cost, 10)::text, 'leftAt', l.left_at,
      'reason', l.reason, 'ledgerEntryId', l.ledger_entry_id) ORDER BY l.line_number)
    FROM ${table(schema, 'return_lines')} l
    JOIN ${table(schema, 'products')} p ON p.id = l.product_id
    JOIN ${table(schema, 'shipment_lines')} sl ON sl.id = l.shipment_line_id
    WHERE l.return_id = r.id), '[]'::json)`
  return db
    .withSchema(schema)
    .selectFrom('returns as r')
    .leftJoin('orders as o', 'o.id', 'r.order_id')
    .where('r.business_id', '=', businessId)
    .select([
      'r.id',
      'r.number',
      'r.status',
      'r.order_id',
      'o.code as order_code',
      'r.shipment_id',
      'r.customer_id',
      'r.reason',
      'r.notes',
      'r.value',
      'r.received_at',
      'r.written_off_at',
      'r.cancelled_at',
      'r.created_by_user_id',
      'r.date_created',
      'r.date_modified',
      lines.as('lines'),
    ])
}

export type ReturnRow = NonNullable<Awaited<ReturnType<typeof findReturn>>>

export const findReturn = (db: Executor, schema: string, businessId: string, id: string) =>
  scopedReturns(db, schema, businessId).where('r.id', '=', id).executeTakeFirst()

/** Locks the return's row until commit: every state change takes it first, so two receipts receive once. */
export function lockReturn(trx: Transaction<Tables>, schema: string, businessId: string, id: string) {
  return trx
    .withSchema(schema)
    .selectFrom('returns')
    .select(['id', 'number', 'status', 'order_id', 'shipment_id', 'customer_id', 'reason', 'value'])
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
}

export const findShipment = (db: Executor, schema: string, businessId: string, id: string) =>
  db
    .withSchema(schema)
    .selectFrom('shipments')
    .select(['id', 'code', 'status', 'order_id', 'customer_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst()

export const findOrder = (db: Executor, schema: string, businessId: string, id: string) =>
  db
    .withSchema(schema)
    .selectFrom('orders')
    .select(['id', 'code', 'customer_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst()

/** The customers of some orders (ids already the business's). */
export async function orderCustomers(db: Executor, schema: string, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>()
  const rows = await db
    .withSchema(schema)
    .selectFrom('orders')
    .select(['id', 'customer_id'])
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((r) => [r.id, r.customer_id]))
}

/** The products of the business among `ids`. */
export async function productsOf(db: Executor, schema: string, businessId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  return db
    .withSchema(schema)
    .selectFrom('products')
    .select(['id'])
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute()
}

export type ReturnSource = { shipmentId: string } | { orderId: string }

/** Where a source's delivered lines are: one shipment's, or the order's lines' on any shipment. */
const sourceCondition = (source: ReturnSource) =>
  'shipmentId' in source
    ? sql<boolean>`sl.shipment_id = ${source.shipmentId}`
    : sql<boolean>`ol.order_id = ${source.orderId}`

/**
 * The issued lines of Delivered shipments of the source, of the products named, locked (id order)
 * until commit so two returns of the same goods take them one after the other; then each with
 * what returns not cancelled already take of it, the cost it left with, when it left (its Sale
 * entry's date) and its order line's price. Oldest first.
 */
export async function lockDeliveredLines(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  source: ReturnSource,
  productIds: readonly string[],
) {
  if (productIds.length === 0) return []
  const where = sql<boolean>`sl.business_id = ${businessId} AND s.status = 'Delivered'
    AND sl.ledger_entry_id IS NOT NULL AND sl.returned_entry_id IS NULL
    AND sl.product_id = ANY(${sql.val(productIds)}::uuid[]) AND ${sourceCondition(source)}`
  await sql`
    SELECT sl.id FROM ${table(schema, 'shipment_lines')} sl
    JOIN ${table(schema, 'shipments')} s ON s.id = sl.shipment_id
    LEFT JOIN ${table(schema, 'order_lines')} ol ON ol.id = sl.order_line_id
    WHERE ${where} ORDER BY sl.id FOR UPDATE OF sl`.execute(trx)
  const { rows } = await sql<{
    id: string
    product_id: string
    order_line_id: string | null
    order_id: string | null
    quantity: string
    unit_cost: string
    unit_price: string
    left_at: Date
    returned: string
  }>`
    SELECT sl.id, sl.product_id, sl.order_line_id, ol.order_id, sl.quantity, sl.unit_cost,
      coalesce(ol.unit_price, 0) AS unit_price, e.effective_date AS left_at,
      (SELECT coalesce(sum(rl.quantity), 0) FROM ${table(schema, 'return_lines')} rl
        JOIN ${table(schema, 'returns')} r ON r.id = rl.return_id
        WHERE rl.shipment_line_id = sl.id AND r.status <> 'Cancelled') AS returned
    FROM ${table(schema, 'shipment_lines')} sl
    JOIN ${table(schema, 'shipments')} s ON s.id = sl.shipment_id
    LEFT JOIN ${table(schema, 'order_lines')} ol ON ol.id = sl.order_line_id
    JOIN ${table(schema, 'stock_ledger')} e ON e.id = sl.ledger_entry_id
    WHERE ${where}
    ORDER BY e.effective_date, sl.id`.execute(trx)
  return rows
}

export type DeliveredLine = Awaited<ReturnType<typeof lockDeliveredLines>>[number]

export async function insertReturn(
  trx: Transaction<Tables>,
  schema: string,
  values: Insertable<ReturnsTable>,
  lines: readonly Insertable<ReturnLinesTable>[],
) {
  await trx.withSchema(schema).insertInto('returns').values(values).execute()
  await trx
    .withSchema(schema)
    .insertInto('return_lines')
    .values([...lines])
    .execute()
}

/** The lines of a (locked) return, in line order. */
export const linesOf = (trx: Transaction<Tables>, schema: string, returnId: string) =>
  trx
    .withSchema(schema)
    .selectFrom('return_lines')
    .select(['id', 'line_number', 'product_id', 'quantity', 'unit_cost', 'left_at'])
    .where('return_id', '=', returnId)
    .orderBy('line_number')
    .execute()

export async function setStatus(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  values: { status: string; received_at?: Date; written_off_at?: Date; cancelled_at?: Date },
) {
  await trx
    .withSchema(schema)
    .updateTable('returns')
    .set({ ...values, date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

/** Records the SaleReturn entry of each line. */
export async function setLineEntries(
  trx: Transaction<Tables>,
  schema: string,
  entries: readonly { id: string; entryId: string }[],
) {
  for (const entry of entries)
    await trx
      .withSchema(schema)
      .updateTable('return_lines')
      .set({ ledger_entry_id: entry.entryId })
      .where('id', '=', entry.id)
      .execute()
}
