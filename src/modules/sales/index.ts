/**
 * What other areas may use of the sales area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it.
 */

export {
  /** Locks the orders of order lines about to ship, in id order, before the caller locks products. */
  lockOrdersToShip,
  /** Records a dispatch's shipped order lines: reservations consumed, orders PartiallyFulfilled or Fulfilled. */
  recordShipped,
  /** One order line's quantity on a dispatched shipment. */
  type ShippedLine,
} from './orders/order-fulfilment.service.js'
export { ORDER_STATUSES } from './orders/orders.schemas.js'
export {
  /** What order lines have shipped so far and their orders' status (a shipment line being added). */
  shippableLines,
} from './reservations/index.js'
