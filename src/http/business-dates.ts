import type { Reason } from '../errors.js'
import { isDateOnly } from './schema-helpers.js'

/**
 * The range every date a client sets on a business record must fall in (docs/api-guide.md, "Dates").
 * The schemas take any year from 0000 to 9999; a ledger dated 0000-01-01, or an order due in 9999, is a
 * typing mistake that would sort before or after everything real and skew every valuation and report.
 *
 * - ledger dates (the effective date of a stock movement, a purchase-order receipt or its reversal, a
 *   transfer's shipping or receipt, a work order's completion): from 1970-01-01T00:00:00Z up to now
 *   (a minute of clock skew allowed); stock is never moved in the future.
 * - other business dates (an order's date, a shipment's or plan's scheduled date, a work order's
 *   planned start and end, a purchase order's expected date, a customer trace's date): from
 *   1970-01-01T00:00:00Z to before ten years from now.
 */
export const EARLIEST_DATE = new Date('1970-01-01T00:00:00Z')

/** Clock skew tolerated on "now" for a ledger date sent by a client. */
const LEDGER_SKEW_MS = 60_000

const PLANNING_YEARS = 10

/** For OpenAPI descriptions: the rule of a ledger date. */
export const LEDGER_DATE_RULE =
  'from 1970-01-01T00:00:00Z, never in the future (400 naming the field otherwise)'

/** For OpenAPI descriptions: the rule of any other business date. */
export const BUSINESS_DATE_RULE =
  'from 1970-01-01T00:00:00Z to before ten years from now (400 naming the field otherwise)'

/** Why a ledger date is out of range, or null. */
export function ledgerDateProblem(date: Date): string | null {
  if (date < EARLIEST_DATE) return 'must not be before 1970-01-01T00:00:00Z'
  if (date.getTime() > Date.now() + LEDGER_SKEW_MS) return 'must not lie in the future'
  return null
}

/**
 * Why a business date is out of range, or null. A date alone (`yyyy-mm-dd`) is compared as a day:
 * from 1970-01-01 to the day before today's date ten years on (UTC).
 */
export function businessDateProblem(value: Date | string, latest = planningHorizon()): string | null {
  if (typeof value === 'string' && isDateOnly(value)) {
    if (value < '1970-01-01') return 'must not be before 1970-01-01'
    if (value >= latest.toISOString().slice(0, 10)) return 'must be less than ten years from now'
    return null
  }
  const date = typeof value === 'string' ? new Date(value) : value
  if (date < EARLIEST_DATE) return 'must not be before 1970-01-01T00:00:00Z'
  if (date >= latest) return 'must be less than ten years from now'
  return null
}

/** Ten years from now: the latest a business date may be. */
export function planningHorizon(now = new Date()): Date {
  const horizon = new Date(now)
  horizon.setUTCFullYear(horizon.getUTCFullYear() + PLANNING_YEARS)
  return horizon
}

/** Adds a reason naming `field` to `reasons` when its business date is out of range. */
export function checkBusinessDate(
  reasons: Reason[],
  field: string,
  value: Date | string | null | undefined,
): void {
  if (value === null || value === undefined) return
  const problem = businessDateProblem(value)
  if (problem) reasons.push({ field, message: problem })
}
