/**
 * What other areas may use of the delivery area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it. A caller that makes a shipment with
 * its own record (a transfer order, say) settles the addresses first, then creates the shipment and
 * puts it on a plan in its own transaction, so all of it commits or rolls back together.
 */
export {
  /** Puts a shipment on a Draft or Scheduled plan in the caller's transaction, as its last stop (locks the plan). */
  putShipmentOnPlan,
} from './plans/plan-shipments.service.js'
export {
  /** The statuses of a delivery plan. */
  PLAN_STATUSES,
} from './plans/plans.schemas.js'
export {
  /** A plan's pick list as JSON: by product (SKU order) and by stop in stop order. */
  pickList,
} from './shipment-lines/pick-list.service.js'
export {
  /** A shipment's settled addresses (delivery, pickup, its order) and the messages saying where they came from. */
  type ShipmentAddresses,
  /** Settles a request's addresses (the order's or customer's when none is sent; coordinates looked up): before the transaction when a geocoder may be called. */
  shipmentAddresses,
} from './shipments/shipment-addresses.js'
export {
  /** The statuses of a shipment. */
  SHIPMENT_STATUSES,
  /** What a shipment is created from (POST /api/v1/shipments's body). */
  type ShipmentRequest,
  /** A shipment as the API answers it. */
  type ShipmentResponse,
} from './shipments/shipments.schemas.js'
export {
  /** Creates a Pending shipment in the caller's transaction from a request and its settled addresses. */
  createShipmentIn,
} from './shipments/shipments.service.js'
