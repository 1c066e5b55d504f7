import { notFound } from '../../../errors.js'

/** The delivery zones module's error codes (tests assert these, never the message). */
export const zoneNotFound = () =>
  notFound('delivery_zone_not_found', 'No delivery zone of this business has this id.')
