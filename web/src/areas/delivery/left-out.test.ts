import { describe, expect, it } from 'vitest'
import { leftOutReason, scheduledOn } from './left-out'

const box = (x0: number, y0: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [x0, y0],
      [x0 + 1, y0],
      [x0 + 1, y0 + 1],
      [x0, y0 + 1],
      [x0, y0],
    ],
  ],
})
const zones = [
  { id: 'north', active: true, polygon: box(0, 0) },
  { id: 'south', active: true, polygon: box(5, 5) },
  { id: 'closed', active: false, polygon: box(10, 10) },
]
const at = (longitude: number | null, latitude: number | null) => ({
  deliveryAddress: { latitude, longitude },
})

describe('why autobatch left a shipment out', () => {
  it('tests coordinates first, then the zones, and blames capacity for the rest', () => {
    expect(leftOutReason(at(null, 0.5), zones, [])).toBe('noLocation')
    expect(leftOutReason({ deliveryAddress: null }, zones, [])).toBe('noLocation')
    expect(leftOutReason(at(3, 3), zones, [])).toBe('noZone')
    expect(leftOutReason(at(0.5, 0.5), zones, [])).toBe('overCapacity')
  })

  it("uses the plan's own zones when it names some, and never an inactive zone", () => {
    expect(leftOutReason(at(0.5, 0.5), zones, ['south'])).toBe('noZone')
    expect(leftOutReason(at(5.5, 5.5), zones, ['south'])).toBe('overCapacity')
    expect(leftOutReason(at(10.5, 10.5), zones, [])).toBe('noZone')
    expect(leftOutReason(at(10.5, 10.5), zones, ['closed'])).toBe('noZone')
  })
})

describe('a delivery day as a filter', () => {
  it('spans the UTC day, across a month end', () => {
    expect(scheduledOn('2026-11-30')).toBe(
      'scheduledDate ge 2026-11-30T00:00:00Z and scheduledDate lt 2026-12-01T00:00:00Z',
    )
  })
})
