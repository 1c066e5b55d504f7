import { conflict, invalidTransition, notFound } from '../../../errors.js'
import type { ShipmentStatus } from './shipments.schemas.js'

/** The shipments module's error codes (tests assert these, never the message). */
export const shipmentNotFound = () =>
  notFound('shipment_not_found', 'No shipment of this business has this id.')

export const shipmentNotEditable = (status: ShipmentStatus) =>
  conflict(
    'shipment_not_editable',
    `A ${status} shipment cannot be changed or deleted; only Pending ones can.`,
  )

export const invalidShipmentTransition = (
  from: ShipmentStatus,
  to: ShipmentStatus,
  allowedFrom: readonly ShipmentStatus[],
) => invalidTransition('A shipment', from, to, allowedFrom)
