import { type Reason, validationFailed } from '../../../errors.js'
import { businessDateProblem } from '../../../http/business-dates.js'
import type { DeliveryWindow } from './shipments.schemas.js'

/**
 * A shipment's delivery windows as sent, checked and normalised to ISO instants: each ends after it
 * starts, each starts after the one before it ends (sorted, not overlapping), every instant within
 * the business dates' range. Every problem is one reason naming `deliveryWindows.<i>.start` or `.end`.
 */
export function checkedWindows(windows: readonly DeliveryWindow[] | null | undefined): DeliveryWindow[] {
  const reasons: Reason[] = []
  const checked = (windows ?? []).map((window, i) => {
    const start = new Date(window.start)
    const end = new Date(window.end)
    for (const [field, date] of [
      ['start', start],
      ['end', end],
    ] as const) {
      const problem = businessDateProblem(date)
      if (problem) reasons.push({ field: `deliveryWindows.${i}.${field}`, message: problem })
    }
    if (end <= start) reasons.push({ field: `deliveryWindows.${i}.end`, message: 'must be after start' })
    const before = windows?.[i - 1]
    if (before && start < new Date(before.end))
      reasons.push({
        field: `deliveryWindows.${i}.start`,
        message: `must not be before the end of deliveryWindows.${i - 1} (sorted, not overlapping)`,
      })
    return { start: start.toISOString(), end: end.toISOString() }
  })
  if (reasons.length > 0) throw validationFailed(reasons)
  return checked
}

/** The windows as stored (jsonb); anything that is not a window is skipped. */
export function storedWindows(value: unknown): DeliveryWindow[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((w: { start?: unknown; end?: unknown } | null) =>
    w && typeof w.start === 'string' && typeof w.end === 'string' ? [{ start: w.start, end: w.end }] : [],
  )
}
