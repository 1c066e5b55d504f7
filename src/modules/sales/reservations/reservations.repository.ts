import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/** The lines of an order that name a product, in line order (whether the product holds stock is the caller's to check). */
export async function productLinesOf(db: Executor, schema: string, orderId: string) {
  return db
    .withSchema(schema)
    .selectFrom('order_lines')
    .select(['id', 'line_number', 'product_id', 'quantity'])
    .where('order_id', '=', orderId)
    .where('product_id', 'is not', null)
    .orderBy('line_number')
    .execute()
}

/** What is reserved of each product now (the products are locked by the caller, so the sums hold until commit). */
export async function reservedOf(
  db: Executor,
  schema: string,
  businessId: string,
  productIds: readonly string[],
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .withSchema(schema)
    .selectFrom('stock_reservations')
    .select(['product_id', sql<string>`sum(quantity)`.as('reserved')])
    .where('business_id', '=', businessId)
    .where('product_id', 'in', productIds)
    .where('quantity', '>', '0')
    .groupBy('product_id')
    .execute()
  return new Map(rows.map((r) => [r.product_id, Number(r.reserved)]))
}

export interface NewReservation {
  id: string
  business_id: string
  order_id: string
  order_line_id: string
  product_id: string
  quantity: string
  backordered: string
}

export async function insertReservations(
  trx: Transaction<Tables>,
  schema: string,
  rows: readonly NewReservation[],
) {
  if (rows.length === 0) return
  await trx.withSchema(schema).insertInto('stock_reservations').values(rows).execute()
}

/** Releases everything an order holds; returns how many lines held anything. */
export async function deleteReservations(trx: Transaction<Tables>, schema: string, orderId: string) {
  const result = await trx
    .withSchema(schema)
    .deleteFrom('stock_reservations')
    .where('order_id', '=', orderId)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Takes shipped quantities off the reservations of order lines (first off what is held, the rest
 * off the backorder), one statement for any number of lines.
 */
export async function consumeReservations(
  trx: Transaction<Tables>,
  schema: string,
  shipped: readonly { orderLineId: string; quantity: string }[],
) {
  if (shipped.length === 0) return
  await sql`
    UPDATE ${table(schema, 'stock_reservations')} r
    SET quantity = greatest(r.quantity - s.quantity, 0),
        backordered = greatest(r.backordered - greatest(s.quantity - r.quantity, 0), 0),
        shipped = r.shipped + s.quantity,
        date_modified = now()
    FROM (SELECT line_id, sum(quantity) AS quantity
          FROM unnest(${sql.val(shipped.map((s) => s.orderLineId))}::uuid[],
                      ${sql.val(shipped.map((s) => s.quantity))}::numeric[]) AS t(line_id, quantity)
          GROUP BY line_id) s
    WHERE r.order_line_id = s.line_id`.execute(trx)
}

/** An order's reservations with their line numbers, in line order. */
export async function reservationsOfOrder(db: Executor, schema: string, businessId: string, orderId: string) {
  return db
    .withSchema(schema)
    .selectFrom('stock_reservations as r')
    .innerJoin('order_lines as l', 'l.id', 'r.order_line_id')
    .select([
      'r.order_line_id',
      'l.line_number',
      'r.product_id',
      'l.quantity as ordered',
      'r.quantity',
      'r.backordered',
      'r.shipped',
    ])
    .where('r.business_id', '=', businessId)
    .where('r.order_id', '=', orderId)
    .orderBy('l.line_number')
    .execute()
}

export interface IncomingRow {
  source: 'PurchaseOrder' | 'TransferOrder' | 'WorkOrder'
  reference: string
  date: string | null
  quantity: number | string
}

/**
 * One product's figures in one statement: on hand, reserved, backordered, and what is on its way
 * (open purchase order lines by expected date, transfers in transit by the day they left, released
 * or started work orders by planned end), earliest first, undated last.
 */
export async function availabilityOf(db: Executor, schema: string, businessId: string, productId: string) {
  const { rows } = await availabilityQuery(schema, businessId, productId).execute(db)
  return rows[0]
}

/** The statement of `availabilityOf`, built apart so the bench's baseline can send the same SQL. */
export function availabilityQuery(schema: string, businessId: string, productId: string) {
  return sql<{
    id: string
    type: string
    on_hand: string
    reserved: string
    backordered: string
    incoming: IncomingRow[]
  }>`
    SELECT p.id, p.type, p.on_hand,
      (SELECT coalesce(sum(r.quantity), 0) FROM ${table(schema, 'stock_reservations')} r
        WHERE r.business_id = p.business_id AND r.product_id = p.id) AS reserved,
      (SELECT coalesce(sum(r.backordered), 0) FROM ${table(schema, 'stock_reservations')} r
        WHERE r.business_id = p.business_id AND r.product_id = p.id) AS backordered,
      (SELECT coalesce(json_agg(i ORDER BY i.date NULLS LAST, i.source, i.reference), '[]'::json) FROM (
        SELECT 'PurchaseOrder' AS source, po.number AS reference, po.expected_date::text AS date,
               l.quantity - l.received_quantity AS quantity
        FROM ${table(schema, 'purchase_order_lines')} l
        JOIN ${table(schema, 'purchase_orders')} po ON po.id = l.purchase_order_id
        WHERE l.product_id = p.id AND po.business_id = p.business_id
          AND po.status IN ('Submitted', 'PartiallyReceived') AND l.quantity > l.received_quantity
        UNION ALL
        SELECT 'TransferOrder', t.number, to_char(t.shipped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
               tl.quantity - tl.quantity_received
        FROM ${table(schema, 'transfer_order_lines')} tl
        JOIN ${table(schema, 'transfer_orders')} t ON t.id = tl.transfer_order_id
        WHERE tl.destination_product_id = p.id AND t.destination_business_id = p.business_id
          AND t.status IN ('Shipped', 'PartiallyReceived') AND tl.quantity > tl.quantity_received
        UNION ALL
        SELECT 'WorkOrder', w.code, to_char(w.planned_end AT TIME ZONE 'UTC', 'YYYY-MM-DD'), w.quantity
        FROM ${table(schema, 'work_orders')} w
        WHERE w.product_id = p.id AND w.business_id = p.business_id AND w.status IN ('Released', 'InProgress')
      ) i) AS incoming
    FROM ${table(schema, 'products')} p
    WHERE p.id = ${productId} AND p.business_id = ${businessId}`
}

export async function orderStatus(db: Executor, schema: string, businessId: string, orderId: string) {
  return db
    .withSchema(schema)
    .selectFrom('orders')
    .select('status')
    .where('id', '=', orderId)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
}

/**
 * The orders of these lines that are Confirmed or PartiallyFulfilled, locked in id order (so two
 * dispatches, or a dispatch and an edit, queue rather than deadlock), with whether every stocked
 * line has shipped in full.
 */
export async function lockShippingOrders(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  orderLineIds: readonly string[],
) {
  if (orderLineIds.length === 0) return []
  // The lines' orders first (an array), then those orders by key: a plan that walked the business's
  // open orders and probed the lines for each would cost as many probes as there are open orders.
  const { rows } = await sql<{ id: string; code: string; customer_id: string; status: string }>`
    SELECT o.id, o.code, o.customer_id, o.status FROM ${table(schema, 'orders')} o
    WHERE o.id = ANY(ARRAY(SELECT l.order_id FROM ${table(schema, 'order_lines')} l
                           WHERE l.id = ANY(${sql.val(orderLineIds)}::uuid[])))
      AND o.business_id = ${businessId} AND o.status IN ('Confirmed', 'PartiallyFulfilled')
    ORDER BY o.id FOR UPDATE`.execute(trx)
  return rows
}

/** Per order: true when every line holding a reservation has shipped its ordered quantity. */
export async function shippedInFull(db: Executor, schema: string, orderIds: readonly string[]) {
  if (orderIds.length === 0) return new Map<string, boolean>()
  const { rows } = await sql<{ order_id: string; complete: boolean }>`
    SELECT r.order_id, bool_and(r.shipped >= l.quantity) AS complete
    FROM ${table(schema, 'stock_reservations')} r
    JOIN ${table(schema, 'order_lines')} l ON l.id = r.order_line_id
    WHERE r.order_id = ANY(${sql.val(orderIds)}::uuid[])
    GROUP BY r.order_id`.execute(db)
  return new Map(rows.map((r) => [r.order_id, r.complete]))
}

/** What each order line has shipped so far and whether its order can still ship (Confirmed or PartiallyFulfilled). */
export async function shippableLines(
  db: Executor,
  schema: string,
  businessId: string,
  orderLineIds: readonly string[],
) {
  if (orderLineIds.length === 0) return []
  const { rows } = await sql<{
    id: string
    order_id: string
    order_status: string
    product_id: string | null
    quantity: string
    shipped: string | null
  }>`
    SELECT l.id, l.order_id, o.status AS order_status, l.product_id, l.quantity, r.shipped
    FROM ${table(schema, 'order_lines')} l
    JOIN ${table(schema, 'orders')} o ON o.id = l.order_id
    LEFT JOIN ${table(schema, 'stock_reservations')} r ON r.order_line_id = l.id
    WHERE o.business_id = ${businessId} AND l.id = ANY(${sql.val(orderLineIds)}::uuid[])`.execute(db)
  return rows
}
