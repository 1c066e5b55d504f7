/**
 * What other areas may use of the sales area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it.
 */
export { ORDER_STATUSES } from './orders/orders.schemas.js'
