import type { Database } from '../../../db/database.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { releaseOrder, reserveOrder } from '../reservations/index.js'
import { invalidOrderTransition, orderNotFound } from './orders.errors.js'
import * as repository from './orders.repository.js'
import type { OrderResponse, OrderStatus } from './orders.schemas.js'
import { loadOrder, trace } from './orders.service.js'

/** The allowed moves: target status, the statuses it may come from, and the trace it writes. */
const MOVES = {
  Confirmed: { from: ['Draft'], trace: 'OrderConfirmed', verb: 'confirmed' },
  Fulfilled: { from: ['Confirmed', 'PartiallyFulfilled'], trace: 'OrderFulfilled', verb: 'fulfilled' },
  Cancelled: { from: ['Draft', 'Confirmed'], trace: 'OrderCancelled', verb: 'cancelled' },
} as const satisfies Record<
  string,
  {
    from: readonly OrderStatus[]
    trace: 'OrderConfirmed' | 'OrderFulfilled' | 'OrderCancelled'
    verb: string
  }
>

export type OrderMove = keyof typeof MOVES

/**
 * Moves an order with one conditional UPDATE (`WHERE status IN (...)`), so of two parallel moves
 * from the same state only one succeeds. When nothing matched, the current status tells a
 * foreign/unknown id (404) from a move the state machine forbids (409 naming from and to).
 */
export async function moveOrder(
  database: Database,
  auth: BusinessAuth,
  orderId: string,
  to: OrderMove,
  events: DomainEventPublisher,
): Promise<OrderResponse> {
  const move = MOVES[to]
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    // A move with several possible sources reads (and locks) the one it leaves, for the event.
    const from =
      move.from.length === 1
        ? move.from[0]
        : await repository.statusOf(trx, schema, businessId, orderId, true)
    const moved = await repository.moveStatus(trx, schema, businessId, orderId, move.from, to)
    if (!moved) {
      const current = await repository.statusOf(trx, schema, businessId, orderId)
      if (!current) throw orderNotFound()
      throw invalidOrderTransition(current, to, move.from)
    }
    // Confirming reserves the order's stock; cancelling or fulfilling by hand releases it.
    if (to === 'Confirmed')
      await reserveOrder(trx, auth, events, { id: moved.id, code: moved.code, customerId: moved.customer_id })
    else await releaseOrder(trx, auth, moved.id)
    await trace(trx, auth, moved.customer_id, moved.id, move.trace, `Order ${moved.code} ${move.verb}`)
    // The move matched a row, so the status it left was read.
    await events.publish(trx, schema, {
      type: 'OrderStatusChanged',
      businessId,
      userId: auth.userId,
      payload: { orderId: moved.id, code: moved.code, customerId: moved.customer_id, from: from!, to },
    })
    return (await loadOrder(trx, auth, orderId))!
  })
}
