/**
 * What the other modules of the purchasing area may use of purchasing/purchase-orders; everything
 * else in its folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { PurchaseOrderParams, type PurchaseOrderResponse } from './purchase-orders.schemas.js'
/** One purchase order as the API shows it (404 purchase_order_not_found for another business's). */
export { getPurchaseOrder } from './purchase-orders.service.js'
