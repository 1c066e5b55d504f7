import { sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { OrderStatus } from './orders.schemas.js'

/** Orders of one business with their customer (deleted customers included: orders keep their history). */
export function scopedOrders(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('orders as o')
    .innerJoin('customers as c', (join) =>
      join.onRef('c.id', '=', 'o.customer_id').onRef('c.business_id', '=', 'o.business_id'),
    )
    .where('o.business_id', '=', businessId)
    .select([
      'o.id',
      'o.business_id',
      'o.code',
      'o.customer_id',
      'c.name as customer_name',
      'o.status',
      'o.order_date',
      'o.currency',
      'o.delivery_address',
      'o.notes',
      'o.total',
      'o.confirmed_at',
      'o.fulfilled_at',
      'o.cancelled_at',
      'o.date_created',
      'o.date_modified',
      // The credit of its settled returns (sales/returns): received back or written off.
      sql<string>`(SELECT coalesce(sum(r.value), 0) FROM ${sql.table(`${schema}.returns`)} r
        WHERE r.order_id = o.id AND r.status IN ('Received', 'WrittenOff'))`.as('returned_value'),
    ])
}

export type OrderRow = NonNullable<Awaited<ReturnType<typeof findOrder>>>
export type OrderLineRow = Awaited<ReturnType<typeof linesOf>>[number]

export async function findOrder(db: Executor, schema: string, businessId: string, orderId: string) {
  return scopedOrders(db, schema, businessId).where('o.id', '=', orderId).executeTakeFirst()
}

/** The lines of several orders in one query (ids already scoped to the caller's business). */
export async function linesOf(db: Executor, schema: string, orderIds: readonly string[]) {
  if (orderIds.length === 0) return []
  return db
    .withSchema(schema)
    .selectFrom('order_lines')
    .select([
      'id',
      'order_id',
      'line_number',
      'product_id',
      'description',
      'quantity',
      'unit_price',
      'line_total',
    ])
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('line_number')
    .execute()
}

export async function businessCurrency(db: Executor, schema: string, businessId: string): Promise<string> {
  const row = await db
    .withSchema(schema)
    .selectFrom('businesses')
    .select('currency')
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.currency
}

export interface OrderValues {
  customer_id: string
  order_date: Date | string
  currency: string
  delivery_address: string | null
  notes: string | null
}

export interface LineValues {
  product_id: string | null
  description: string | null
  quantity: string
  unit_price: string
}

export async function insertOrder(
  trx: Transaction<Tables>,
  schema: string,
  order: OrderValues & { id: string; business_id: string; code: string },
) {
  await trx.withSchema(schema).insertInto('orders').values(order).execute()
}

/** Locks the order row until commit; status moves (conditional UPDATEs) wait for it. */
export async function lockOrder(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  orderId: string,
) {
  return trx
    .withSchema(schema)
    .selectFrom('orders')
    .select(['id', 'code', 'status', 'customer_id', 'order_date', 'currency'])
    .where('id', '=', orderId)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
}

export async function updateOrder(
  trx: Transaction<Tables>,
  schema: string,
  orderId: string,
  order: OrderValues,
) {
  await trx
    .withSchema(schema)
    .updateTable('orders')
    .set({ ...order, date_modified: sql<Date>`now()` })
    .where('id', '=', orderId)
    .execute()
}

/** Replaces the lines (numbered 1..n) and recomputes the stored total from them, in SQL. */
export async function replaceLines(
  trx: Transaction<Tables>,
  schema: string,
  orderId: string,
  lines: readonly (LineValues & { id: string })[],
) {
  const db = trx.withSchema(schema)
  await db.deleteFrom('order_lines').where('order_id', '=', orderId).execute()
  await db
    .insertInto('order_lines')
    .values(lines.map((line, index) => ({ ...line, order_id: orderId, line_number: index + 1 })))
    .execute()
  await db
    .updateTable('orders')
    .set((eb) => ({
      total: eb
        .selectFrom('order_lines')
        .select(sql<string>`coalesce(sum(line_total), 0)`.as('total'))
        .where('order_id', '=', orderId),
    }))
    .where('id', '=', orderId)
    .execute()
}

const STAMPS = { Confirmed: 'confirmed_at', Fulfilled: 'fulfilled_at', Cancelled: 'cancelled_at' } as const

/**
 * Moves an order to `to` in one conditional UPDATE: only a row still in one of `from` changes,
 * so of two parallel moves at most one can succeed. Undefined when nothing matched.
 * Stamped when it applies (`appliedAt`), so confirmedAt never comes after a cancelledAt that followed it.
 */
export async function moveStatus(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  orderId: string,
  from: readonly OrderStatus[],
  to: keyof typeof STAMPS,
) {
  return trx
    .withSchema(schema)
    .updateTable('orders')
    .set({
      status: to,
      [STAMPS[to]]: appliedAt(),
      date_modified: appliedAt(),
    })
    .where('id', '=', orderId)
    .where('business_id', '=', businessId)
    .where('status', 'in', from)
    .returning(['id', 'code', 'customer_id'])
    .executeTakeFirst()
}

export async function statusOf(
  db: Executor,
  schema: string,
  businessId: string,
  orderId: string,
  lock = false,
) {
  const row = await db
    .withSchema(schema)
    .selectFrom('orders')
    .select('status')
    .where('id', '=', orderId)
    .where('business_id', '=', businessId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
  return row?.status as OrderStatus | undefined
}

/**
 * A dispatch's moves of Confirmed or PartiallyFulfilled orders, in one statement (fulfilledAt
 * stamped on those shipped in full).
 */
export async function setFulfilments(
  trx: Transaction<Tables>,
  schema: string,
  moves: readonly { orderId: string; to: 'PartiallyFulfilled' | 'Fulfilled' }[],
) {
  if (moves.length === 0) return
  await sql`
    UPDATE ${sql.table(`${schema}.orders`)} o
    SET status = m.status,
        fulfilled_at = CASE WHEN m.status = 'Fulfilled' THEN ${appliedAt()} ELSE o.fulfilled_at END,
        date_modified = ${appliedAt()}
    FROM unnest(${sql.val(moves.map((m) => m.orderId))}::uuid[], ${sql.val(moves.map((m) => m.to))}::text[])
      AS m(id, status)
    WHERE o.id = m.id`.execute(trx)
}
