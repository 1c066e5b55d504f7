// How figures, money and moments are written, in the browser's own language.

const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options)
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(undefined, options)
    numberFormats.set(key, format)
  }
  return format
}

/**
 * A quantity: up to 4 decimals (the ledger's precision), none when whole, followed by the product's
 * unit when it is known (`12.5 kg`).
 */
export function quantity(value: number | null | undefined, unit?: string | null): string {
  if (value === null || value === undefined) return '—'
  const figure = numberFormat({ maximumFractionDigits: 4 }).format(value)
  return unit?.trim() ? `${figure} ${unit.trim()}` : figure
}

/** The currency's minor units (2 for ZAR, 0 for JPY, 3 for KWD); 2 for an unknown code. */
export function minorUnits(currency: string | null | undefined): number {
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return 2
  try {
    return numberFormat({ style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

function moneyWith(value: number, currency: string | null | undefined, extra: number): string {
  const digits = minorUnits(currency)
  const options = { minimumFractionDigits: digits, maximumFractionDigits: Math.max(digits, extra) }
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    try {
      return numberFormat({ style: 'currency', currency, ...options }).format(value)
    } catch {
      // An unknown code: the plain number and the code.
      return `${numberFormat(options).format(value)} ${currency}`
    }
  }
  return numberFormat(options).format(value)
}

/** An amount in the currency's minor units, as people read it (ZAR 15.31, never 15.3125). */
export function money(value: number | null | undefined, currency: string | null | undefined = null): string {
  if (value === null || value === undefined) return '—'
  return moneyWith(value, currency, 0)
}

/** The cost of one unit: up to 4 decimals (the ledger's precision), at least the currency's. */
export function costPerUnit(
  value: number | null | undefined,
  currency: string | null | undefined = null,
): string {
  if (value === null || value === undefined) return '—'
  return moneyWith(value, currency, 4)
}

/** A distance in kilometres, to 100 m. */
export function kilometres(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  return `${numberFormat({ maximumFractionDigits: 1 }).format(value)} km`
}

export function percent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined) return '—'
  return numberFormat({ style: 'percent', maximumFractionDigits: digits }).format(value)
}

export function integer(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  return numberFormat({ maximumFractionDigits: 0 }).format(value)
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** An instant (ISO 8601) in the browser's time zone. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date)
}

const clockFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })

/** The time of day of an instant (ISO 8601) in the browser's time zone: a planned arrival. */
export function clock(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : clockFormat.format(date)
}

/** A calendar day (yyyy-mm-dd) as written, never shifted by a time zone. */
export function day(value: string | null | undefined): string {
  if (!value) return '—'
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
  if (!match) return value
  return dateFormat.format(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
}

/** Splits a PascalCase name for reading: "InTransit" -> "In transit". */
export function words(name: string | null | undefined): string {
  if (!name) return ''
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}
