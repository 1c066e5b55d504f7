import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { lockProducts } from '../../manufacturing/index.js'
import { readSetting } from '../../organisation/index.js'
import { insufficientStock, orderNotFound, productNotFound } from './reservations.errors.js'
import * as repository from './reservations.repository.js'
import { allocate, earliestPromise, round4 } from './reservations.rules.js'
import type {
  AvailabilityResponse,
  OrderReservationsResponse,
  PromiseQuery,
  PromiseResponse,
} from './reservations.schemas.js'

/** The order a reservation is for, as its caller (the order's own transaction) read it. */
export interface ReservedOrder {
  id: string
  code: string
  customerId: string
}

/**
 * Reserves the stocked product lines of an order being confirmed (or re-reserves an edited one),
 * in the caller's transaction, after the order row is locked or moved. Products are locked in id
 * order first, so two confirmations competing for the last units run one after the other and the
 * second sees what the first reserved: nothing is reserved twice. Short lines are refused (409
 * naming each) or backordered, as the business's `orders.shortConfirmation` says.
 */
export async function reserveOrder(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  events: DomainEventPublisher,
  order: ReservedOrder,
): Promise<void> {
  const { schemaName: schema, businessId } = auth
  await repository.deleteReservations(trx, schema, order.id)
  const lines = await repository.productLinesOf(trx, schema, order.id)
  if (lines.length === 0) return
  const products = await lockProducts(trx, schema, businessId, [...new Set(lines.map((l) => l.product_id!))])
  // Services and other businesses' ids hold no stock here: nothing to reserve for them.
  const stocked = new Map(products.filter((p) => p.type !== 'Service').map((p) => [p.id, p]))
  const toReserve = lines
    .filter((l) => stocked.has(l.product_id!))
    .map((l) => ({
      lineId: l.id,
      lineNumber: l.line_number,
      productId: l.product_id!,
      quantity: Number(l.quantity),
    }))
  if (toReserve.length === 0) return
  const reserved = await repository.reservedOf(trx, schema, businessId, [...stocked.keys()])
  const available = new Map(
    [...stocked.values()].map((p) => [p.id, round4(Number(p.on_hand) - (reserved.get(p.id) ?? 0))]),
  )
  const allocations = allocate(toReserve, available)
  const short = allocations.filter((a) => a.short > 0)
  if (
    short.length > 0 &&
    (await readSetting(trx, schema, businessId, 'orders.shortConfirmation')) === 'Refuse'
  )
    throw insufficientStock(short)
  await repository.insertReservations(
    trx,
    schema,
    allocations.map((a) => ({
      id: newId(),
      business_id: businessId,
      order_id: order.id,
      order_line_id: a.lineId,
      product_id: a.productId,
      quantity: String(a.reserved),
      backordered: String(a.short),
    })),
  )
  const line = (a: (typeof allocations)[number]) => ({
    orderLineId: a.lineId,
    lineNumber: a.lineNumber,
    productId: a.productId,
    reserved: a.reserved,
    backordered: a.short,
  })
  const base = { orderId: order.id, code: order.code, customerId: order.customerId }
  const publish = { businessId, userId: auth.userId }
  await events.publish(trx, schema, {
    type: 'OrderReserved',
    ...publish,
    payload: { ...base, lines: allocations.map(line) },
  })
  if (short.length > 0)
    await events.publish(trx, schema, {
      type: 'OrderBackordered',
      ...publish,
      payload: { ...base, lines: short.map(line) },
    })
}

/** Releases what an order holds (cancelled, or fulfilled by hand), in the caller's transaction. */
export async function releaseOrder(trx: Transaction<Tables>, auth: BusinessAuth, orderId: string) {
  await repository.deleteReservations(trx, auth.schemaName, orderId)
}

/**
 * Takes what shipped off the order lines' reservations (held first, then backordered), in the
 * caller's transaction (a dispatch).
 */
export async function consumeReservations(
  trx: Transaction<Tables>,
  auth: { schemaName: string },
  shipped: readonly { orderLineId: string; quantity: string }[],
) {
  await repository.consumeReservations(trx, auth.schemaName, shipped)
}

export async function getOrderReservations(
  database: Database,
  auth: BusinessAuth,
  orderId: string,
): Promise<OrderReservationsResponse> {
  const db = database.db
  const [order, rows] = await Promise.all([
    repository.orderStatus(db, auth.schemaName, auth.businessId, orderId),
    repository.reservationsOfOrder(db, auth.schemaName, auth.businessId, orderId),
  ])
  if (!order) throw orderNotFound()
  return {
    orderId,
    status: order.status,
    lines: rows.map((r) => ({
      orderLineId: r.order_line_id,
      lineNumber: r.line_number,
      productId: r.product_id,
      ordered: Number(r.ordered),
      reserved: Number(r.quantity),
      backordered: Number(r.backordered),
      shipped: Number(r.shipped),
    })),
  }
}

export async function getAvailability(
  database: Database,
  auth: BusinessAuth,
  productId: string,
): Promise<AvailabilityResponse> {
  const row = await repository.availabilityOf(database.db, auth.schemaName, auth.businessId, productId)
  if (!row) throw productNotFound()
  const onHand = Number(row.on_hand)
  const reserved = Number(row.reserved)
  return {
    productId,
    onHand,
    reserved,
    available: round4(onHand - reserved),
    backordered: Number(row.backordered),
    incoming: row.incoming.map((i) => ({ ...i, quantity: Number(i.quantity) })),
  }
}

/** Available-to-promise: can `quantity` be promised on `date`, and from which day at the earliest. */
export async function promise(
  database: Database,
  auth: BusinessAuth,
  productId: string,
  query: PromiseQuery,
): Promise<PromiseResponse> {
  const figures = await getAvailability(database, auth, productId)
  const today = new Date().toISOString().slice(0, 10)
  const date = query.date ?? today
  const free = round4(figures.available - figures.backordered)
  const earliestDate = earliestPromise(free, figures.incoming, query.quantity, today)
  return {
    productId,
    quantity: query.quantity,
    date,
    promisable: earliestDate !== null && earliestDate <= date,
    earliestDate,
    free,
  }
}
