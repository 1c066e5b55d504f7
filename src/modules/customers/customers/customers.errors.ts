import { invalidField, notFound, validationFailed } from '../../../errors.js'
import { METADATA_MAX_KEYS } from './metadata.rules.js'

/** The customers module's error codes (tests assert these, never the message). */
export const customerNotFound = () =>
  notFound('customer_not_found', 'No customer of this business has this id.')

/** A bulk delete is all or nothing: the 404 names every id it could not delete. */
export const customersNotFound = (ids: readonly string[]) =>
  notFound(
    'customer_not_found',
    `No customer of this business has these ids; nothing was deleted: ${ids.join(', ')}`,
  )

export const contactNotFound = () =>
  notFound('contact_not_found', 'This customer has no contact with this id.')

export const unknownCustomerGroup = () =>
  invalidField('customerGroupId', 'no customer group of this business has this id')

/** The keys a metadata merge would add beyond the limit, one reason each. */
export const tooManyMetadataKeys = (added: readonly string[]) =>
  validationFailed(
    added.map((key) => ({
      field: key,
      message: `a customer has at most ${METADATA_MAX_KEYS} metadata keys; remove some (value null) before adding more`,
    })),
  )
