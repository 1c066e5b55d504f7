import { describe, expect, it } from 'vitest'
import { containsPoint, type Polygon, parseGeometry, polygonsOf, selfIntersection } from './geometry.js'
import { SQUARE_WITH_HOLE, square, TWO_SQUARES } from './zones.fixtures.js'

const reasonsOf = (value: unknown) => {
  const parsed = parseGeometry(value, 'polygon')
  return 'reasons' in parsed ? parsed.reasons : []
}

describe('zone geometry', () => {
  it('accepts a polygon with a hole and a MultiPolygon, with their bounding boxes', () => {
    const hole = parseGeometry(SQUARE_WITH_HOLE, 'polygon')
    expect(hole).toMatchObject({
      bbox: { minLongitude: 0, minLatitude: 0, maxLongitude: 10, maxLatitude: 10 },
    })
    const multi = parseGeometry(TWO_SQUARES, 'polygon')
    expect(multi).toMatchObject({
      bbox: { minLongitude: 20, minLatitude: 20, maxLongitude: 32, maxLatitude: 32 },
    })
  })

  it('requires each hole inside its outer ring: positions inside or on it, no edge crossing it', () => {
    const outer = square(0, 0, 10, 10)
    expect(reasonsOf({ type: 'Polygon', coordinates: [outer, square(8, 8, 12, 9)] })).toEqual([
      { field: 'polygon.coordinates[1][1]', message: expect.stringContaining('inside the outer ring') },
    ])
    // Every position inside, yet an edge leaves and comes back through a notch of the outer ring.
    const notched = [
      [0, 0],
      [10, 0],
      [10, 10],
      [6, 10],
      [5, 4],
      [4, 10],
      [0, 10],
      [0, 0],
    ]
    const across = [
      [3, 6],
      [7, 6],
      [7, 7],
      [3, 7],
      [3, 6],
    ]
    expect(reasonsOf({ type: 'Polygon', coordinates: [notched, across] })).toEqual([
      { field: 'polygon.coordinates[1]', message: expect.stringContaining('crosses edge') },
    ])
    // Touching the outer ring at a position is allowed.
    const touching = [
      [0, 5],
      [5, 3],
      [5, 7],
      [0, 5],
    ]
    expect(reasonsOf({ type: 'Polygon', coordinates: [outer, touching] })).toEqual([])
  })

  it('names the problem: open ring, too few positions, ranges, self-intersection, type', () => {
    expect(
      reasonsOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      })[0],
    ).toMatchObject({
      field: 'polygon.coordinates[0]',
      message: expect.stringContaining('not closed'),
    })
    expect(
      reasonsOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      })[0]?.message,
    ).toContain('four')
    expect(
      reasonsOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [181, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }),
    ).toEqual([{ field: 'polygon.coordinates[0][1][0]', message: expect.stringContaining('longitude') }])
    expect(
      reasonsOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, -91],
            [1, 1],
            [0, 0],
          ],
        ],
      })[0]?.field,
    ).toBe('polygon.coordinates[0][1][1]')
    const bowtie = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 2],
          [2, 0],
          [0, 2],
          [0, 0],
        ],
      ],
    }
    expect(reasonsOf(bowtie)[0]?.message).toContain('intersects itself')
    expect(
      reasonsOf({ ...TWO_SQUARES, coordinates: [[square(0, 0, 1, 1)], [bowtie.coordinates[0]]] })[0]?.field,
    ).toBe('polygon.coordinates[1][0]')
    expect(reasonsOf({ type: 'Point', coordinates: [0, 0] })[0]?.field).toBe('polygon.type')
    expect(
      reasonsOf({
        type: 'Polygon',
        coordinates: [
          [
            ['a', 0],
            [1, 0],
            [1, 1],
            ['a', 0],
          ],
        ],
      })[0]?.field,
    ).toBe('polygon.coordinates[0][0]')
    expect(reasonsOf('nope')[0]?.field).toBe('polygon')
  })

  it('finds no crossing in a simple concave ring', () => {
    const concave = [
      [0, 0],
      [4, 0],
      [4, 4],
      [2, 1],
      [0, 4],
      [0, 0],
    ] as const
    expect(selfIntersection(concave as unknown as Polygon[number])).toBeUndefined()
  })

  it('excludes holes and tests every polygon of a MultiPolygon', () => {
    const hole = polygonsOf(SQUARE_WITH_HOLE as never)
    expect(containsPoint(hole, 1, 1)).toBe(true)
    expect(containsPoint(hole, 5, 5)).toBe(false)
    expect(containsPoint(hole, 8, 5)).toBe(true)
    expect(containsPoint(hole, 11, 5)).toBe(false)
    const multi = polygonsOf(TWO_SQUARES as never)
    expect(containsPoint(multi, 21, 21)).toBe(true)
    expect(containsPoint(multi, 31, 31)).toBe(true)
    expect(containsPoint(multi, 25, 25)).toBe(false)
  })
})
