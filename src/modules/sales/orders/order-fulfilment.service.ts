import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { addTraces } from '../../customers/index.js'
import { consumeReservations, lockShippingOrders, shippedInFull } from '../reservations/index.js'
import * as repository from './orders.repository.js'

/** One order line's quantity on a dispatched shipment. */
export interface ShippedLine {
  orderLineId: string
  quantity: string
}

/**
 * Locks the orders that lines about to ship belong to (id order), before the caller locks any
 * product: an order edit locks the order and then its products, so both take them in one order.
 */
export const lockOrdersToShip = (
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  lines: readonly ShippedLine[],
) =>
  lockShippingOrders(
    trx,
    auth.schemaName,
    auth.businessId,
    lines.map((l) => l.orderLineId),
  )

/**
 * Records what a dispatch shipped of order lines, in its transaction: takes it off the lines'
 * reservations and moves each Confirmed or PartiallyFulfilled order to Fulfilled when every stocked
 * line has shipped in full, else to PartiallyFulfilled (announced as any status move is).
 */
export async function recordShipped(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  events: DomainEventPublisher,
  lines: readonly ShippedLine[],
) {
  if (lines.length === 0) return
  const { schemaName: schema, businessId } = auth
  const orders = await lockOrdersToShip(trx, auth, lines)
  await consumeReservations(trx, auth, lines)
  const complete = await shippedInFull(
    trx,
    schema,
    orders.map((o) => o.id),
  )
  // The orders that move, each with its trace and event, all written together (a plan's dispatch
  // moves one order per stop).
  const moved = orders.flatMap((order) => {
    const to = complete.get(order.id) ? ('Fulfilled' as const) : ('PartiallyFulfilled' as const)
    return to === order.status ? [] : [{ order, to }]
  })
  await repository.setFulfilments(
    trx,
    schema,
    moved.map(({ order, to }) => ({ orderId: order.id, to })),
  )
  await addTraces(
    trx,
    schema,
    moved.map(({ order, to }) => ({
      businessId,
      customerId: order.customer_id,
      orderId: order.id,
      type: 'OrderFulfilled',
      note: to === 'Fulfilled' ? `Order ${order.code} fulfilled` : `Order ${order.code} partly shipped`,
      source: 'System' as const,
      userId: auth.userId,
    })),
  )
  await events.publishAll(
    trx,
    schema,
    moved.map(({ order, to }) => ({
      type: 'OrderStatusChanged' as const,
      businessId,
      userId: auth.userId,
      payload: { orderId: order.id, code: order.code, customerId: order.customer_id, from: order.status, to },
    })),
  )
}
