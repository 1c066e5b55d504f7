import type { Executor } from '../../db/tables.js'
import { DateOrDateTime, isDateOnly } from '../../http/schema-helpers.js'
import { endOfBusinessDay } from './as-of.repository.js'

/** What an as-of date means in the stock and cost reads, said once for their descriptions. */
export const AS_OF_MEANING =
  "a date-time (without an offset: UTC), or a date yyyy-mm-dd meaning the end of that day in the business's time zone " +
  "(its last millisecond: everything effective on that day counts); default now. The answer's asOfDate is the instant used."

/** The asOfDate query parameter of the stock and cost reads. */
export const AsOfDate = (what: string) => DateOrDateTime({ description: `${what}: ${AS_OF_MEANING}` })

/**
 * The instant an as-of value stands for: now when absent; a date-time as it is; a date as the
 * last millisecond of that day in the business's time zone (the ledger is read `<=` the instant).
 * Only the date form reads the database (the business's time zone).
 */
export async function asOfInstant(
  db: Executor,
  auth: { schemaName: string; businessId: string },
  value: string | undefined,
): Promise<Date> {
  if (value === undefined) return new Date()
  if (!isDateOnly(value)) return new Date(value)
  const at = await endOfBusinessDay(db, auth.schemaName, auth.businessId, value)
  return at ?? new Date(`${value}T23:59:59.999Z`)
}
