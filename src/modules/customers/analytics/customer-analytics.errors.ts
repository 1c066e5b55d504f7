import { notFound } from '../../../errors.js'

/** The customer analytics module's error codes (tests assert these, never the message). */
export const customerNotFound = () =>
  notFound('customer_not_found', 'No customer of this business has this id (or it was deleted).')
