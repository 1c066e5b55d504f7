/** What the other modules of the delivery area may use of delivery/shipment-lines. */
export {
  /** Issues a just-dispatched plan's shipment lines from stock, in the dispatch's transaction. */
  issueDispatchedLines,
  /** Puts a shipment's issued goods back into stock (cancelled after dispatch), in the caller's transaction. */
  returnShipmentGoods,
} from './dispatch.service.js'
export {
  /** A plan's pick list (by product, and by stop in stop order), for a printed one too. */
  pickList,
} from './pick-list.service.js'
export {
  /** Sets the weight and volume the client did not give from the shipments' lines and preset. */
  refreshDerivedLoad,
} from './shipment-lines.repository.js'
