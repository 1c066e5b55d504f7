import { conflict, notFound } from '../../../errors.js'

/** The carriers module's error codes (tests assert these, never the message). */
export const carrierNotFound = () => notFound('carrier_not_found', 'No carrier in the catalogue has this id.')

export const carrierNotConfigured = () =>
  notFound('carrier_not_configured', 'This carrier is not configured for this business.')

export const defaultCarrierConflict = () =>
  conflict('default_carrier_conflict', 'Another carrier became the default at the same time; try again.')

export const contactNotFound = () =>
  notFound('carrier_contact_not_found', 'No carrier contact of this business has this id.')
