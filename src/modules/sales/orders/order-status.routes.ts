import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { moveOrder } from './order-status.service.js'
import { OrderParams, OrderResponse } from './orders.schemas.js'

const STATUS_MOVES = [
  {
    path: 'confirm',
    to: 'Confirmed',
    operationId: 'ConfirmOrder',
    summary: 'Confirm a Draft order',
    description:
      "Draft -> Confirmed; sets confirmedAt and reserves the stock of its product lines (a short line is backordered, or refused with 409 insufficient_stock naming each short line, as orders.shortConfirmation says). Writes OrderConfirmed on the customer's timeline.",
  },
  {
    path: 'fulfill',
    to: 'Fulfilled',
    operationId: 'FulfillOrder',
    summary: 'Mark a Confirmed or PartiallyFulfilled order fulfilled',
    description:
      "Confirmed or PartiallyFulfilled -> Fulfilled (what is still reserved is released); sets fulfilledAt. Writes OrderFulfilled on the customer's timeline.",
  },
  {
    path: 'cancel',
    to: 'Cancelled',
    operationId: 'CancelOrder',
    summary: 'Cancel a Draft or Confirmed order',
    description:
      "Draft or Confirmed -> Cancelled; sets cancelledAt and releases its reservations. Writes OrderCancelled on the customer's timeline.",
  },
] as const

/** An order's status moves: confirm, fulfill, cancel. */
export function registerOrderStatusRoutes(app: HttpApp, { database, services }: AppDeps) {
  for (const move of STATUS_MOVES) {
    app.post(
      `/api/v1/orders/:orderId/${move.path}`,
      operation(['Orders', 'Modify'], {
        operationId: move.operationId,
        summary: move.summary,
        description: `${move.description} Any other move is a 409 invalid_status_transition naming the current and requested status.`,
        tags: ['Orders'],
        params: OrderParams,
        response: SingleResult('core', OrderResponse),
        errors: [400, 404, 409],
      }),
      async (request) =>
        single(
          'core',
          await moveOrder(
            database,
            businessAuthOf(request),
            request.params.orderId,
            move.to,
            services.events,
          ),
        ),
    )
  }
}
