import { notFound } from '../../../errors.js'

/** The tracking module's error codes (tests assert these, never the message). */
export const trackingLinkNotFound = () =>
  notFound('tracking_link_not_found', 'No shipment has this tracking link.')
