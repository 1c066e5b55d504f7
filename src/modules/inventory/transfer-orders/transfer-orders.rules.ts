import { type Reason, validationFailed } from '../../../errors.js'

/** Clock skew tolerated on "now" for an effective date sent by a client. */
const FUTURE_SKEW_MS = 60_000

/** An effective date sent by a client: default now, never in the future (400 naming the field). */
export function effectiveDateOf(value: string | undefined, field = 'effectiveDate'): Date {
  if (value === undefined) return new Date()
  const date = new Date(value)
  if (date.getTime() > Date.now() + FUTURE_SKEW_MS)
    throw validationFailed([{ field, message: 'must not lie in the future' }])
  return date
}

/** True when `value` has at most `places` decimal places (what numeric(18, 4) stores as sent). */
const hasPlaces = (value: number, places: number) => Number(value.toFixed(places)) === value

/** One reason per quantity with more than 4 decimal places, which the columns would round silently. */
export function quantityReasons(lines: readonly { quantity: number }[]): Reason[] {
  return lines.flatMap((line, index) =>
    hasPlaces(line.quantity, 4)
      ? []
      : [{ field: `lines.${index}.quantity`, message: 'must have at most 4 decimal places' }],
  )
}
