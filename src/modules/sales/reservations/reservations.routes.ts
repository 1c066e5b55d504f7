import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  AvailabilityResponse,
  OrderIdParams,
  OrderReservationsResponse,
  ProductIdParams,
  PromiseQuery,
  PromiseResponse,
} from './reservations.schemas.js'
import { getAvailability, getOrderReservations, promise } from './reservations.service.js'

/** What orders hold of the stock, and what can be promised (M1 Orders View for an order, M4 Products View for a product). */
export function registerReservationRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/orders/:orderId/reservations',
    operation(['Orders', 'View'], {
      operationId: 'GetOrderReservations',
      summary: "What an order holds of its products' stock",
      description:
        'Per line of a stocked product: reserved now and backordered (short at confirmation, not shipped since). Empty for a Draft, Cancelled or fully shipped order.',
      tags: ['Reservations'],
      params: OrderIdParams,
      response: SingleResult('core', OrderReservationsResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getOrderReservations(database, businessAuthOf(request), request.params.orderId)),
  )
  app.get(
    '/api/v1/products/:productId/availability',
    operation(['Products', 'View'], {
      operationId: 'GetProductAvailability',
      summary: 'On hand, reserved, available, backordered and incoming stock of a product',
      description:
        'Incoming: open purchase order lines (by expected date), transfers in transit to this business (by the day they left) and released or started work orders (by planned end).',
      tags: ['Reservations'],
      params: ProductIdParams,
      response: SingleResult('core', AvailabilityResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getAvailability(database, businessAuthOf(request), request.params.productId)),
  )
  app.get(
    '/api/v1/products/:productId/available-to-promise',
    operation(['Products', 'View'], {
      operationId: 'GetAvailableToPromise',
      summary: 'Whether a quantity of a product can be promised on a day, and the earliest day it can',
      description:
        'From the same figures as the availability: what is available now less backorders, then dated incoming stock, earliest first.',
      tags: ['Reservations'],
      params: ProductIdParams,
      querystring: PromiseQuery,
      response: SingleResult('core', PromiseResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await promise(database, businessAuthOf(request), request.params.productId, request.query),
      ),
  )
}
