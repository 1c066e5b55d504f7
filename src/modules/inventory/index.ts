/**
 * What other areas may use of the inventory area (transfer orders); everything else in its folders
 * is its own. The dependency test (test/architecture) holds other areas to it.
 */
export {
  /** The statuses of a transfer order. */
  TRANSFER_ORDER_STATUSES,
} from './transfer-orders/transfer-orders.schemas.js'
