import { AppError, conflict, type Reason } from '../../../errors.js'

/** The stock module's error codes (tests assert these, never the message). */
export const serviceHoldsNoStock = () =>
  conflict('service_holds_no_stock', 'A Service product holds no stock.')

export const productArchived = () =>
  conflict('product_archived', 'An archived product takes no stock movements.')

/** A movement that would leave a point in time below zero: the first such date and the shortfall there. */
export const stockShortfall = (date: Date, shortfall: number, field = 'quantity') =>
  new AppError(
    409,
    'stock_shortfall',
    `The stock would fall below zero on ${date.toISOString()}, short by ${shortfall}.`,
    [{ field, message: `short by ${shortfall} on ${date.toISOString()}` }],
  )

/** At most this many reasons in one bulk error body; the message says how many rows were refused. */
const MAX_REASONS = 100

/** A bulk request refused for some of its rows (`reasons` name them as `movements.<index>.<field>`). */
function rowsRefused(status: number, code: string, what: string, reasons: readonly Reason[]) {
  const rows = new Set(reasons.map((r) => r.field.split('.')[1])).size
  const listed = reasons.length > MAX_REASONS ? ` (the first ${MAX_REASONS} reasons are listed)` : ''
  return new AppError(
    status,
    code,
    `${rows} row(s) ${what}; nothing was posted${listed}.`,
    reasons.slice(0, MAX_REASONS),
  )
}

export const rowsNotValid = (reasons: readonly Reason[]) =>
  rowsRefused(400, 'validation_failed', 'are not valid', reasons)

export const rowsOfUnknownProducts = (reasons: readonly Reason[]) =>
  rowsRefused(404, 'product_not_found', 'name no product of this business', reasons)

export const rowsOfServices = (reasons: readonly Reason[]) =>
  rowsRefused(409, 'service_holds_no_stock', 'name a Service product, which holds no stock', reasons)

export const rowsOfArchivedProducts = (reasons: readonly Reason[]) =>
  rowsRefused(409, 'product_archived', 'name an archived product, which takes no stock movements', reasons)
