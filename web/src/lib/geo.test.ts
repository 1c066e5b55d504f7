import { describe, expect, it } from 'vitest'
import { closeRing, formatCorners, inZone, openRing, type Position, parseCorners } from './geo'

const square = (x0: number, y0: number, size: number): Position[] => [
  [x0, y0],
  [x0 + size, y0],
  [x0 + size, y0 + size],
  [x0, y0 + size],
  [x0, y0],
]

describe('inZone', () => {
  it('tells points inside a polygon, outside it, and in its hole apart', () => {
    const zone = { type: 'Polygon', coordinates: [square(18, -34, 1), square(18.4, -33.6, 0.2)] }
    expect(inZone([18.1, -33.9], zone)).toBe(true)
    expect(inZone([19.5, -33.9], zone)).toBe(false)
    expect(inZone([18.5, -33.5], zone)).toBe(false)
  })

  it('checks every part of a MultiPolygon, and refuses what is not a polygon', () => {
    const zone = { type: 'MultiPolygon', coordinates: [[square(0, 0, 1)], [square(10, 10, 1)]] }
    expect(inZone([10.5, 10.5], zone)).toBe(true)
    expect(inZone([5, 5], zone)).toBe(false)
    expect(inZone([0.5, 0.5], { type: 'Point', coordinates: [0.5, 0.5] })).toBe(false)
  })
})

describe('corners', () => {
  it('reads typed "latitude, longitude" lines as GeoJSON positions, and names bad lines', () => {
    expect(parseCorners('-33.9, 18.4\n-33.9 18.5\n\n-34.0;18.5\n')).toEqual({
      corners: [
        [18.4, -33.9],
        [18.5, -33.9],
        [18.5, -34],
      ],
      problems: [],
    })
    expect(parseCorners('-33.9, 18.4\nsomewhere\n-95, 18').problems).toEqual([
      'Line 2: write "latitude, longitude", e.g. -33.92, 18.42',
      'Line 3: latitude must be -90..90 and longitude -180..180',
    ])
    expect(parseCorners('-33.9, 18.4\n-33.9, 18.5').problems).toEqual(['A zone needs at least 3 corners.'])
  })

  it('closes a ring for GeoJSON and opens it for editing, and writes corners back as text', () => {
    const corners: Position[] = [
      [1, 2],
      [3, 4],
      [5, 6],
    ]
    expect(closeRing(corners)).toEqual([...corners, [1, 2]])
    expect(closeRing(closeRing(corners))).toEqual([...corners, [1, 2]])
    expect(openRing(closeRing(corners))).toEqual(corners)
    expect(parseCorners(formatCorners(corners)).corners).toEqual(corners)
  })
})
