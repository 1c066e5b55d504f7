const formats = new Map<string, Intl.DateTimeFormat>()

/** How far the wall clock of `timeZone` is ahead of UTC at the instant `at` (ms; 0 for an unknown zone). */
function offsetMs(timeZone: string, at: number): number {
  let format = formats.get(timeZone)
  if (!format) {
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
      return 0
    }
    formats.set(timeZone, format)
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, Number(p.value)]))
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
