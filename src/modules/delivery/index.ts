/**
 * What other areas may use of the delivery area; everything else in its folders is its own. The
 * dependency test (test/architecture) holds other areas to it.
 */
export { PLAN_STATUSES } from './plans/plans.schemas.js'
export { SHIPMENT_STATUSES } from './shipments/shipments.schemas.js'
