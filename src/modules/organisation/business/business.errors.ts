import { notFound } from '../../../errors.js'

/** The business module's error codes (tests assert these, never the message). */
export const businessNotFound = () =>
  notFound('business_not_found', 'No business of your organisation has this id.')
