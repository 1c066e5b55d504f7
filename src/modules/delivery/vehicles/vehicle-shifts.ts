import { type Reason, validationFailed } from '../../../errors.js'
import type { Location, VehicleBreak, VehicleRequest } from './vehicles.schemas.js'

export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/**
 * A vehicle's shift and breaks as sent, checked: a shift has both ends and ends after it starts;
 * a break's latest start is not before its earliest and, when the vehicle has a shift, the break
 * lies inside it. Every problem is one reason naming its field (`shiftEnd`, `breaks.<i>.latest`).
 */
export function checkShift(request: VehicleRequest) {
  const reasons: Reason[] = []
  const { shiftStart, shiftEnd } = request
  const breaks = request.breaks ?? []
  if ((shiftStart == null) !== (shiftEnd == null)) {
    const missing = shiftStart == null ? 'shiftStart' : 'shiftEnd'
    reasons.push({ field: missing, message: 'shiftStart and shiftEnd go together: give both, or neither' })
  } else if (shiftStart != null && shiftEnd != null && minutesOf(shiftEnd) <= minutesOf(shiftStart)) {
    reasons.push({ field: 'shiftEnd', message: 'must be after shiftStart' })
  }
  const shift = reasons.length === 0 && shiftStart != null && shiftEnd != null
  breaks.forEach((b, i) => {
    const earliest = minutesOf(b.earliest)
    const latest = minutesOf(b.latest)
    if (latest < earliest)
      reasons.push({ field: `breaks.${i}.latest`, message: 'must not be before earliest' })
    if (shift && earliest < minutesOf(shiftStart))
      reasons.push({ field: `breaks.${i}.earliest`, message: 'must not be before shiftStart' })
    if (shift && latest + b.durationMinutes > minutesOf(shiftEnd))
      reasons.push({
        field: `breaks.${i}.latest`,
        message: 'a break starting then would end after shiftEnd',
      })
  })
  if (reasons.length > 0) throw validationFailed(reasons)
}

/** A stored location, or null when it is not one. */
export function storedLocation(value: unknown): Location | null {
  const v = value as { latitude?: unknown; longitude?: unknown } | null
  return v && typeof v.latitude === 'number' && typeof v.longitude === 'number'
    ? { latitude: v.latitude, longitude: v.longitude }
    : null
}

/** The breaks as stored (jsonb); anything that is not a break is skipped. */
export function storedBreaks(value: unknown): VehicleBreak[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((b: Partial<VehicleBreak> | null) =>
    b &&
    typeof b.earliest === 'string' &&
    typeof b.latest === 'string' &&
    typeof b.durationMinutes === 'number'
      ? [{ earliest: b.earliest, latest: b.latest, durationMinutes: b.durationMinutes }]
      : [],
  )
}
