import { type Insertable, sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type {
  TransferDirection,
  TransferOrderLineResponse,
  TransferReceiptResponse,
} from './transfer-orders.schemas.js'
import type { TransferOrderLinesTable, TransferOrdersTable } from './transfer-orders.tables.js'

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/** The orders of a business: those it sends (Outgoing), receives (Incoming), or both. */
const sideOf = (businessId: string, direction: TransferDirection | undefined) =>
  direction === 'Outgoing'
    ? sql<boolean>`t.source_business_id = ${businessId}`
    : direction === 'Incoming'
      ? sql<boolean>`t.destination_business_id = ${businessId}`
      : sql<boolean>`(t.source_business_id = ${businessId} OR t.destination_business_id = ${businessId})`

/** A line as the JSON aggregate carries it (numbers still exact where they matter: unit_cost is text). */
export type LineJson = Omit<
  TransferOrderLineResponse,
  'unitCost' | 'valueInTransit' | 'quantityInTransit' | 'quantityShipped'
> & {
  unitCost: string | null
}

/**
 * Transfer orders the business is the source or the destination of, each with its lines and
 * receipts (json_agg): one statement per read. `direction` is the business's side.
 */
export function scopedTransferOrders(
  db: Executor,
  schema: string,
  businessId: string,
  direction?: TransferDirection,
) {
  const lines = sql<LineJson[]>`coalesce((
    SELECT json_agg(json_build_object('id', l.id, 'lineNumber', l.line_number,
      'productId', l.source_product_id, 'product', json_build_object('id', sp.id, 'sku', sp.sku, 'name', sp.name),
      'destinationProductId', l.destination_product_id,
      'destinationProduct', json_build_object('id', dp.id, 'sku', dp.sku, 'name', dp.name),
      'quantity', l.quantity, 'unitCost', l.unit_cost::text, 'quantityReceived', l.quantity_received)
      ORDER BY l.line_number)
    FROM ${table(schema, 'transfer_order_lines')} l
    JOIN ${table(schema, 'products')} sp ON sp.id = l.source_product_id
    JOIN ${table(schema, 'products')} dp ON dp.id = l.destination_product_id
    WHERE l.transfer_order_id = t.id), '[]'::json)`
  const receipts = sql<TransferReceiptResponse[]>`coalesce((
    SELECT json_agg(json_build_object('id', r.id, 'effectiveDate', r.effective_date,
      'createdByUserId', r.created_by_user_id, 'dateCreated', r.date_created,
      'lines', (SELECT coalesce(json_agg(json_build_object('lineId', rl.line_id, 'quantity', rl.quantity)
                  ORDER BY ol.line_number), '[]'::json)
                FROM ${table(schema, 'transfer_order_receipt_lines')} rl
                JOIN ${table(schema, 'transfer_order_lines')} ol ON ol.id = rl.line_id
                WHERE rl.receipt_id = r.id))
      ORDER BY r.date_created, r.id)
    FROM ${table(schema, 'transfer_order_receipts')} r WHERE r.transfer_order_id = t.id), '[]'::json)`
  return db
    .withSchema(schema)
    .selectFrom('transfer_orders as t')
    .where(sideOf(businessId, direction))
    .select([
      't.id',
      't.number',
      't.source_business_id',
      't.destination_business_id',
      sql<string>`CASE WHEN t.source_business_id = ${businessId} THEN 'Outgoing' ELSE 'Incoming' END`.as(
        'direction',
      ),
      't.status',
      't.notes',
      't.shipped_at',
      't.received_at',
      't.cancelled_at',
      't.shipment_id',
      't.created_by_user_id',
      't.date_created',
      't.date_modified',
      lines.as('lines'),
      receipts.as('receipts'),
    ])
}

export type TransferOrderRow = NonNullable<Awaited<ReturnType<typeof findTransferOrder>>>

export async function findTransferOrder(db: Executor, schema: string, businessId: string, id: string) {
  return scopedTransferOrders(db, schema, businessId).where('t.id', '=', id).executeTakeFirst()
}

/**
 * Locks the order row (the business being either side) until commit: every state change of a
 * transfer takes this lock first, so two ships ship once and two receipts never pass what shipped.
 */
export async function lockTransferOrder(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  id: string,
) {
  return trx
    .withSchema(schema)
    .selectFrom('transfer_orders')
    .selectAll()
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('source_business_id', '=', businessId), eb('destination_business_id', '=', businessId)]),
    )
    .forUpdate()
    .executeTakeFirst()
}

/** The products of one business among `ids`: what a line may name. */
export async function productsOf(db: Executor, schema: string, businessId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  return db
    .withSchema(schema)
    .selectFrom('products')
    .select(['id', 'sku', 'type', 'archived_at'])
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute()
}

/** The products of one business whose SKU is one of `skus` (letter case ignored, as SKUs are unique). */
export async function productsBySku(
  db: Executor,
  schema: string,
  businessId: string,
  skus: readonly string[],
) {
  if (skus.length === 0) return []
  return db
    .withSchema(schema)
    .selectFrom('products')
    .select(['id', 'sku', 'type', 'archived_at'])
    .where('business_id', '=', businessId)
    .where(
      sql<string>`lower(sku)`,
      'in',
      skus.map((s) => s.toLowerCase()),
    )
    .execute()
}

export async function insertTransferOrder(
  trx: Transaction<Tables>,
  schema: string,
  values: Insertable<TransferOrdersTable>,
) {
  await trx.withSchema(schema).insertInto('transfer_orders').values(values).execute()
}

export async function replaceLines(
  trx: Transaction<Tables>,
  schema: string,
  orderId: string,
  lines: readonly Insertable<TransferOrderLinesTable>[],
) {
  await trx
    .withSchema(schema)
    .deleteFrom('transfer_order_lines')
    .where('transfer_order_id', '=', orderId)
    .execute()
  await trx
    .withSchema(schema)
    .insertInto('transfer_order_lines')
    .values([...lines])
    .execute()
}

export async function updateDraft(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  values: { destination_business_id: string; notes: string | null },
) {
  await trx
    .withSchema(schema)
    .updateTable('transfer_orders')
    .set({ ...values, date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

/** The lines of a (locked) order, in line order. */
export async function linesOf(trx: Transaction<Tables>, schema: string, orderId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('transfer_order_lines')
    .selectAll()
    .where('transfer_order_id', '=', orderId)
    .orderBy('line_number')
    .execute()
}

export async function setLineCost(
  trx: Transaction<Tables>,
  schema: string,
  lineId: string,
  unitCost: string,
) {
  await trx
    .withSchema(schema)
    .updateTable('transfer_order_lines')
    .set({ unit_cost: unitCost })
    .where('id', '=', lineId)
    .execute()
}

export async function addReceived(
  trx: Transaction<Tables>,
  schema: string,
  lineId: string,
  quantity: number,
) {
  await trx
    .withSchema(schema)
    .updateTable('transfer_order_lines')
    .set({ quantity_received: sql<string>`quantity_received + ${quantity}` })
    .where('id', '=', lineId)
    .execute()
}

export async function setStatus(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  values: { status: string; shipped_at?: Date; received_at?: Date; cancelled_at?: Date },
) {
  await trx
    .withSchema(schema)
    .updateTable('transfer_orders')
    .set({ ...values, date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

export async function insertReceipt(
  trx: Transaction<Tables>,
  schema: string,
  receipt: { id: string; transfer_order_id: string; effective_date: Date; created_by_user_id: string | null },
  lines: readonly { line_id: string; quantity: number }[],
) {
  await trx.withSchema(schema).insertInto('transfer_order_receipts').values(receipt).execute()
  await trx
    .withSchema(schema)
    .insertInto('transfer_order_receipt_lines')
    .values(lines.map((l) => ({ ...l, receipt_id: receipt.id })))
    .execute()
}

export async function linkShipment(trx: Transaction<Tables>, schema: string, id: string, shipmentId: string) {
  await trx
    .withSchema(schema)
    .updateTable('transfer_orders')
    .set({ shipment_id: shipmentId, date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

/**
 * What is in transit from or to the business: one row per line of a shipped order not yet wholly
 * received with something outstanding, with the business's side.
 */
export function scopedInTransit(
  db: Executor,
  schema: string,
  businessId: string,
  direction?: TransferDirection,
) {
  return db
    .withSchema(schema)
    .selectFrom('transfer_orders as t')
    .innerJoin('transfer_order_lines as l', 'l.transfer_order_id', 't.id')
    .innerJoin('products as p', 'p.id', 'l.source_product_id')
    .where('t.status', 'in', ['Shipped', 'PartiallyReceived'])
    .where(sideOf(businessId, direction))
    .where(sql<boolean>`l.quantity > l.quantity_received`)
    .select([
      't.id as transfer_order_id',
      't.number',
      sql<string>`CASE WHEN t.source_business_id = ${businessId} THEN 'Outgoing' ELSE 'Incoming' END`.as(
        'direction',
      ),
      't.source_business_id',
      't.destination_business_id',
      'l.id as line_id',
      'l.source_product_id',
      'p.sku',
      'p.name',
      'l.destination_product_id',
      sql<string>`l.quantity - l.quantity_received`.as('quantity_in_transit'),
      sql<string>`round(l.unit_cost, 10)`.as('unit_cost'),
      sql<string>`round((l.quantity - l.quantity_received) * l.unit_cost, 4)`.as('value'),
      't.shipped_at',
    ])
}

export type InTransitRow = Awaited<ReturnType<ReturnType<typeof scopedInTransit>['execute']>>[number]

/** The stored addresses of the two businesses of a transfer (the same organisation's schema). */
export async function businessAddresses(db: Executor, schema: string, ids: readonly string[]) {
  const rows = await db
    .withSchema(schema)
    .selectFrom('businesses')
    .select(['id', 'address'])
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((r) => [r.id, r.address]))
}
