// Dates as the forms take them (local, from <input type="date|datetime-local">) and as the APIs take
// them (ISO 8601 UTC instants, or yyyy-mm-dd days).

const pad = (n: number) => String(n).padStart(2, '0')

/** yyyy-mm-dd of a Date in the browser's time zone. */
export function localDay(date: Date = new Date()): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The value of a datetime-local input for an instant: yyyy-mm-ddThh:mm in local time. */
export function toLocalInput(date: Date = new Date()): string {
  return `${localDay(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** A datetime-local input's value as an ISO instant, or null when it is empty or not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** The instant that ends a local day (23:59:59.999): "stock as of 3 March" means at the end of it. */
export function endOfLocalDay(dayValue: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dayValue)
  if (!match) return null
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).toISOString()
}

/** yyyy-mm-dd of an instant in an IANA time zone; the browser's day when the zone is unknown. */
export function dayIn(timeZone: string | null | undefined, date: Date = new Date()): string {
  if (!timeZone) return localDay(date)
  try {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(date)
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
    return `${part('year')}-${part('month')}-${part('day')}`
  } catch {
    return localDay(date)
  }
}

/**
 * The first and last day of the last `days` days, today included: today as it is in the business's
 * time zone when it is given (at 23:30 in London it is already tomorrow in Johannesburg), else in
 * the browser's.
 */
export function lastDays(
  days: number,
  today: Date = new Date(),
  timeZone: string | null = null,
): { from: string; to: string } {
  const to = dayIn(timeZone, today)
  const [year, month, date] = to.split('-').map(Number) as [number, number, number]
  const from = new Date(Date.UTC(year, month - 1, date - (days - 1))).toISOString().slice(0, 10)
  return { from, to }
}

/** A moment in the future, to the minute (the ledger refuses future dates). */
export function isFuture(iso: string, now: Date = new Date()): boolean {
  return new Date(iso).getTime() > now.getTime() + 60_000
}
