import { conflict, notFound } from '../../../errors.js'

/** The shipment-lines module's error codes (tests assert these, never the message). */
export const shipmentNotFound = () =>
  notFound('shipment_not_found', 'No shipment of this business has this id.')

export const lineNotFound = () =>
  notFound('shipment_line_not_found', 'The shipment has no line with this id.')

export const planNotFound = () =>
  notFound('delivery_plan_not_found', 'No delivery plan of this business has this id.')

export const linesLocked = (status: string) =>
  conflict(
    'shipment_lines_locked',
    `A ${status} shipment's lines cannot change; only Pending and Assigned shipments' can.`,
  )
