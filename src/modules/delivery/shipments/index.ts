/**
 * What the other modules of the delivery area may use of delivery/shipments; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */

export { storedWindows } from './delivery-windows.js'
export { moveShipmentIn } from './shipment-status.service.js'
export { shipmentNotFound } from './shipments.errors.js'
export type { ProofLinks } from './shipments.events.js'
export { toShipment } from './shipments.mapper.js'
export { SHIPMENT_COLUMNS, type ShipmentRow, scopedUnassignedShipments } from './shipments.repository.js'
export { ShipmentResponse } from './shipments.schemas.js'
export { SHIPMENT_LIST } from './shipments.service.js'
