import { describe, expect, it } from 'vitest'
import { localInstant, wallClockText } from './local-time.js'

const at = (ms: number) => new Date(ms).toISOString()

describe('a time of day in a business’s time zone', () => {
  it('is that wall-clock time on the day, whatever the zone’s offset', () => {
    expect(at(localInstant('2026-12-01', 8 * 60, 'UTC'))).toBe('2026-12-01T08:00:00.000Z')
    expect(at(localInstant('2026-12-01', 8 * 60, 'Africa/Johannesburg'))).toBe('2026-12-01T06:00:00.000Z')
    expect(at(localInstant('2026-12-01', 0, 'Pacific/Auckland'))).toBe('2026-11-30T11:00:00.000Z')
    expect(at(localInstant('2026-12-01', 23 * 60 + 30, 'America/Los_Angeles'))).toBe(
      '2026-12-02T07:30:00.000Z',
    )
  })

  it('follows the clock on the day it changes', () => {
    // New York moves from UTC-5 to UTC-4 at 02:00 on 8 March 2026.
    expect(at(localInstant('2026-03-08', 60, 'America/New_York'))).toBe('2026-03-08T06:00:00.000Z')
    expect(at(localInstant('2026-03-08', 180, 'America/New_York'))).toBe('2026-03-08T07:00:00.000Z')
  })

  it('reads an unknown zone as UTC', () => {
    expect(at(localInstant('2026-12-01', 60, 'Nowhere/Atlantis'))).toBe('2026-12-01T01:00:00.000Z')
  })
})

describe('wallClockText', () => {
  it("writes the zone's wall clock, across a change of the clocks, and UTC's for an unknown zone", () => {
    const at = new Date('2026-03-29T00:30:00Z')
    expect(wallClockText(at, 'Europe/Berlin')).toBe('2026-03-29 01:30')
    expect(wallClockText(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29 03:30')
    expect(wallClockText(new Date('2026-12-01T23:05:00Z'), 'Africa/Johannesburg')).toBe('2026-12-02 01:05')
    expect(wallClockText(at, 'Not/AZone')).toBe('2026-03-29 00:30')
  })
})
