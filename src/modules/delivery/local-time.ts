/** Wall clocks of the delivery area's time zones (a business's), one formatter per zone for the process. */
const formats = new Map<string, Intl.DateTimeFormat | null>()

function formatOf(timeZone: string): Intl.DateTimeFormat | null {
  let format = formats.get(timeZone)
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
    } catch {
      format = null
    }
    formats.set(timeZone, format)
  }
  return format
}

/** The wall clock's fields of `timeZone` at the instant `at`; UTC's for an unknown zone. */
function wallParts(timeZone: string, at: number): Record<string, number> {
  const format = formatOf(timeZone) ?? formatOf('UTC')
  return Object.fromEntries((format?.formatToParts(at) ?? []).map((p) => [p.type, Number(p.value)]))
}

/** How far the wall clock of `timeZone` is ahead of UTC at the instant `at` (ms; 0 for an unknown zone). */
function offsetMs(timeZone: string, at: number): number {
  const part = wallParts(timeZone, at)
  const wall = Date.UTC(
    part.year ?? 1970,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour ?? 0,
    part.minute ?? 0,
    part.second ?? 0,
  )
  return wall - Math.floor(at / 1000) * 1000
}

/**
 * The instant (ms since the epoch) the wall clocks of `timeZone` show `minutes` past midnight on
 * `day` (yyyy-mm-dd). The offset is read at that time itself, so a shift on the day clocks change
 * starts when the clock on the wall says; a time the change skips reads with the offset before it.
 */
export function localInstant(day: string, minutes: number, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000
  const guess = wall - offsetMs(timeZone, wall)
  return wall - offsetMs(timeZone, guess)
}

const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0')

/** `2026-12-01 09:30`: what the wall clocks of `timeZone` show at `at` (UTC's for an unknown zone). */
export function wallClockText(at: Date, timeZone: string): string {
  const part = wallParts(timeZone, at.getTime())
  return `${part.year}-${two(part.month)}-${two(part.day)} ${two(part.hour)}:${two(part.minute)}`
}
