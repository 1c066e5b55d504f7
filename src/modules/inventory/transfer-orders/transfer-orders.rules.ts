import type { Reason } from '../../../errors.js'

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
