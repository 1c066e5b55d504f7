import type { Reason } from '../../errors.js'

/** True when `value` has at most `places` decimal places (what numeric(p, places) stores as sent). */
export const hasPlaces = (value: number, places: number) => Number(value.toFixed(places)) === value

/**
 * One reason per present number with more decimals than the column keeps (4 for quantities and
 * amounts, 6 for unit costs): such values would be rounded silently otherwise.
 */
export function decimalReasons(
  values: Record<string, number | null | undefined>,
  places = 4,
  prefix = '',
): Reason[] {
  const reasons: Reason[] = []
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'number' && !hasPlaces(value, places))
      reasons.push({ field: `${prefix}${field}`, message: `must have at most ${places} decimal places` })
  }
  return reasons
}

/** numeric text to a number for the wire (null stays null). */
export const num = (value: string | null): number | null => (value === null ? null : Number(value))

/** Rounds to `places` decimals for the wire. */
export const round = (value: number, places = 4) => {
  const factor = 10 ** places
  return Math.round((value + Number.EPSILON) * factor) / factor
}

export const iso = (value: Date | null) => (value ? value.toISOString() : null)

/** Largest quantity, cost or price accepted: keeps products of two within numeric(18, 4). */
export const MAX_AMOUNT = 1_000_000_000
