/** What the other modules of the sales area may use of reservations. */

export {
  /** The Confirmed or PartiallyFulfilled orders of some order lines, locked in id order (a dispatch). */
  lockShippingOrders,
  /** What order lines have shipped so far and their orders' status (a shipment line being added). */
  shippableLines,
  /** Per order: whether every stocked line has shipped in full. */
  shippedInFull,
} from './reservations.repository.js'
export {
  /** Takes shipped quantities off order lines' reservations (held first, then backordered), in the caller's transaction. */
  consumeReservations,
  /** Releases everything an order holds, in the caller's transaction. */
  releaseOrder,
  /** Reserves an order's stocked lines (refusing or backordering a shortfall), in the caller's transaction. */
  reserveOrder,
} from './reservations.service.js'
