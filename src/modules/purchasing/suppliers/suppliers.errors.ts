import { conflict, notFound } from '../../../errors.js'

/** The suppliers module's error codes (tests assert these, never the message). */
export const supplierNotFound = () =>
  notFound('supplier_not_found', 'No supplier of this business has this id (or it was deleted).')

export const productNotFound = () => notFound('product_not_found', 'No product of this business has this id.')

export const termsNotFound = () =>
  notFound('supplier_product_not_found', 'The supplier has no terms for this product.')

export const supplierInactive = () =>
  conflict('supplier_inactive', 'An inactive supplier cannot be made the preferred supplier of a product.')
