import { notFound } from '../../../errors.js'

/** The address module's error codes (tests assert these, never the message). */
export const addressNotFound = () =>
  notFound('address_not_found', 'No address could be recognised in the text.')
