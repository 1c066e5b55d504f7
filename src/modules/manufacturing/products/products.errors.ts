import { conflict, notFound } from '../../../errors.js'

/** The products module's error codes (tests assert these, never the message). */
export const productNotFound = () => notFound('product_not_found', 'No product of this business has this id.')

export const skuTaken = () => conflict('sku_taken', 'Another product of this business already has this SKU.')

export const productTypeLocked = () =>
  conflict('product_type_locked', 'A product with stock history cannot become or stop being a Service.')
