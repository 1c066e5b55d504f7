import { type Insertable, sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { PurchaseOrderStatus } from './purchase-orders.schemas.js'
import type { PurchaseOrdersTable } from './purchase-orders.tables.js'

/** Statuses in which goods are still expected: the ones that can be overdue. */
export const AWAITING = ['Submitted', 'PartiallyReceived'] as const

/** "Today" in the business's time zone, as an SQL date (the business row joined as `b`). */
const businessToday = sql<string>`(now() AT TIME ZONE b.timezone)::date`

/** Purchase orders of one business with their supplier (deleted suppliers included: history keeps them). */
export function scopedPurchaseOrders(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('purchase_orders as po')
    .innerJoin('suppliers as s', 's.id', 'po.supplier_id')
    .innerJoin('businesses as b', 'b.id', 'po.business_id')
    .where('po.business_id', '=', businessId)
    .select([
      'po.id',
      'po.business_id',
      'po.number',
      'po.supplier_id',
      's.code as supplier_code',
      's.name as supplier_name',
      'po.status',
      'po.currency',
      sql<string | null>`to_char(po.expected_date, 'YYYY-MM-DD')`.as('expected_date'),
      sql<boolean>`(po.status IN ('Submitted', 'PartiallyReceived') AND po.expected_date < ${businessToday})`.as(
        'is_overdue',
      ),
      'po.notes',
      'po.total',
      sql<string>`(SELECT coalesce(round(sum(l.received_quantity * l.unit_cost), 4), 0)
        FROM ${sql.table(`${schema}.purchase_order_lines`)} l WHERE l.purchase_order_id = po.id)`.as(
        'received_total',
      ),
      'po.submitted_at',
      'po.received_at',
      'po.closed_at',
      'po.cancelled_at',
      'po.date_created',
      'po.date_modified',
    ])
}

export type PurchaseOrderRow = NonNullable<Awaited<ReturnType<typeof findPurchaseOrder>>>
export type PurchaseOrderLineRow = Awaited<ReturnType<typeof linesOf>>[number]

export async function findPurchaseOrder(db: Executor, schema: string, businessId: string, id: string) {
  return scopedPurchaseOrders(db, schema, businessId).where('po.id', '=', id).executeTakeFirst()
}

/** The lines of several purchase orders in one query (ids already scoped to the caller's business). */
export async function linesOf(db: Executor, schema: string, purchaseOrderIds: readonly string[]) {
  if (purchaseOrderIds.length === 0) return []
  return db
    .withSchema(schema)
    .selectFrom('purchase_order_lines as l')
    .innerJoin('products as p', 'p.id', 'l.product_id')
    .select([
      'l.id',
      'l.purchase_order_id',
      'l.line_number',
      'l.product_id',
      'p.sku as product_sku',
      'p.name as product_name',
      'l.quantity',
      'l.unit_cost',
      'l.line_total',
      'l.received_quantity',
    ])
    .where('l.purchase_order_id', 'in', purchaseOrderIds)
    .orderBy('l.purchase_order_id')
    .orderBy('l.line_number')
    .execute()
}

/** Locks the purchase order row until commit: every change of it (and of its lines) waits for it. */
export async function lockPurchaseOrder(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  id: string,
) {
  return trx
    .withSchema(schema)
    .selectFrom('purchase_orders')
    .select(['id', 'number', 'status', 'supplier_id', 'currency', 'expected_date'])
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
}

/** The lines of a (locked) purchase order, each locked until commit, in line order. */
export async function lockLines(trx: Transaction<Tables>, schema: string, purchaseOrderId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('purchase_order_lines')
    .select(['id', 'line_number', 'product_id', 'quantity', 'unit_cost', 'received_quantity'])
    .where('purchase_order_id', '=', purchaseOrderId)
    .orderBy('line_number')
    .forUpdate()
    .execute()
}

export type LockedLine = Awaited<ReturnType<typeof lockLines>>[number]

/** The products a purchase order's lines name: whether each is the business's and can take stock. */
export async function productsOf(
  db: Executor,
  schema: string,
  businessId: string,
  productIds: readonly string[],
) {
  if (productIds.length === 0) return new Map<string, { type: string; archived: boolean }>()
  const rows = await db
    .withSchema(schema)
    .selectFrom('products')
    .select(['id', 'type', 'archived_at'])
    .where('business_id', '=', businessId)
    .where('id', 'in', productIds)
    .execute()
  return new Map(rows.map((r) => [r.id, { type: r.type, archived: r.archived_at !== null }]))
}

/** The fields of a purchase order a client sets. */
export interface PurchaseOrderValues {
  supplier_id: string
  currency: string
  expected_date: string | null
  notes: string | null
}

export interface LineValues {
  id: string
  product_id: string
  quantity: number
  unit_cost: number | string
}

export async function insertPurchaseOrder(
  trx: Transaction<Tables>,
  schema: string,
  values: Insertable<PurchaseOrdersTable>,
) {
  await trx.withSchema(schema).insertInto('purchase_orders').values(values).execute()
}

export async function updatePurchaseOrder(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  values: PurchaseOrderValues,
) {
  await trx
    .withSchema(schema)
    .updateTable('purchase_orders')
    .set({ ...values, date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

/** Replaces the lines (numbered 1..n) and recomputes the stored total from them, in SQL. */
export async function replaceLines(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  purchaseOrderId: string,
  lines: readonly LineValues[],
) {
  const db = trx.withSchema(schema)
  await db.deleteFrom('purchase_order_lines').where('purchase_order_id', '=', purchaseOrderId).execute()
  await db
    .insertInto('purchase_order_lines')
    .values(
      lines.map((line, index) => ({
        ...line,
        business_id: businessId,
        purchase_order_id: purchaseOrderId,
        line_number: index + 1,
      })),
    )
    .execute()
  await db
    .updateTable('purchase_orders')
    .set({
      total: sql<string>`(SELECT coalesce(sum(l.line_total), 0) FROM ${sql.table(`${schema}.purchase_order_lines`)} l
        WHERE l.purchase_order_id = ${purchaseOrderId})`,
    })
    .where('id', '=', purchaseOrderId)
    .execute()
}

export async function deletePurchaseOrder(trx: Transaction<Tables>, schema: string, id: string) {
  await trx.withSchema(schema).deleteFrom('purchase_orders').where('id', '=', id).execute()
}

const STAMPS = {
  Submitted: 'submitted_at',
  Received: 'received_at',
  Closed: 'closed_at',
  Cancelled: 'cancelled_at',
} as const

/**
 * Moves the (locked) purchase order to `to`. Submitted, Received, Closed and Cancelled are stamped
 * when applied; a Received stamp is kept when a reversal moves the order back (the first time it
 * was complete), and replaced when it completes again.
 */
export async function movePurchaseOrder(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  to: PurchaseOrderStatus,
) {
  const stamp = to in STAMPS ? { [STAMPS[to as keyof typeof STAMPS]]: appliedAt() } : {}
  await trx
    .withSchema(schema)
    .updateTable('purchase_orders')
    .set({ status: to, ...stamp, date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

/** Adds each line's `delta` (negative for a reversal) to its received quantity (lines locked): one statement. */
export async function addReceived(
  trx: Transaction<Tables>,
  schema: string,
  deltas: readonly { lineId: string; delta: number }[],
) {
  if (deltas.length === 0) return
  await sql`
    UPDATE ${sql.table(`${schema}.purchase_order_lines`)} l
    SET received_quantity = l.received_quantity + d.delta, date_modified = clock_timestamp()
    FROM unnest(${sql.val(deltas.map((d) => d.lineId))}::uuid[], ${sql.val(deltas.map((d) => String(d.delta)))}::numeric[])
      AS d(id, delta)
    WHERE l.id = d.id`.execute(trx)
}

/**
 * Marks the awaited purchase orders past their expected date (today in their business's time
 * zone) as notified, and returns them: the business's, or with `businessId` null every business's
 * of the schema (the periodic sweep). Rows locked by a change in flight are skipped (the next check
 * takes them) so a read never waits; of two concurrent checks only one claims a given order, so
 * PurchaseOrderOverdue is published once per order.
 */
export async function claimOverdue(db: Executor, schema: string, businessId: string | null) {
  const orders = sql.table(`${schema}.purchase_orders`)
  const { rows } = await sql<{
    id: string
    business_id: string
    number: string
    supplier_id: string
    expected_date: string
  }>`
    UPDATE ${orders} po SET overdue_notified_at = clock_timestamp()
    WHERE po.id IN (
      SELECT p.id FROM ${orders} p JOIN ${sql.table(`${schema}.businesses`)} b ON b.id = p.business_id
      WHERE (${businessId}::uuid IS NULL OR p.business_id = ${businessId}::uuid)
        AND p.status IN ('Submitted', 'PartiallyReceived')
        AND p.overdue_notified_at IS NULL AND p.expected_date < ${businessToday}
      FOR UPDATE OF p SKIP LOCKED)
    RETURNING po.id, po.business_id, po.number, po.supplier_id,
      to_char(po.expected_date, 'YYYY-MM-DD') AS expected_date`.execute(db)
  return rows
}

/** Every organisation's schema, for the overdue sweep. */
export async function organisationSchemas(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('global.organizations')
    .select('schema_name')
    .orderBy('schema_name')
    .execute()
  return rows.map((row) => row.schema_name)
}
