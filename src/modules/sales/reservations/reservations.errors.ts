import { AppError, notFound } from '../../../errors.js'
import type { Allocation } from './reservations.rules.js'

/** The reservations module's error codes (tests assert these, never the message). */

/** A confirmation refused for lack of stock: one reason per short line, naming it and by how much. */
export const insufficientStock = (short: readonly Allocation[]) =>
  new AppError(
    409,
    'insufficient_stock',
    `${short.length} line(s) are short of stock; the business refuses short confirmations (orders.shortConfirmation).`,
    short.map((line) => ({
      field: `lines.${line.lineNumber - 1}.quantity`,
      message: `short by ${line.short} (${line.reserved} available)`,
    })),
  )

export const productNotFound = () => notFound('product_not_found', 'No product of this business has this id.')

export { orderNotFound } from '../order-errors.js'
