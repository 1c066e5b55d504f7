import { conflict } from '../../../errors.js'

/** The proof-of-delivery module's error codes (tests assert these, never the message). */
export const stopAlreadyArrived = () =>
  conflict('stop_already_arrived', 'The driver already reported arriving at this stop on this plan.')

export const shipmentNotInTransit = (status: string) =>
  conflict(
    'shipment_not_in_transit',
    `A ${status} shipment is not on its way; stop operations need an InTransit shipment.`,
  )
