import { describe, expect, it } from 'vitest'
import {
  containsPoint,
  type GeometryWork,
  MAX_EDGE_TESTS,
  MAX_TOTAL_POSITIONS,
  type Polygon,
  type Position,
  parseGeometry,
  polygonsOf,
  selfIntersection,
  type ZoneGeometry,
} from './geometry.js'
import { PreparedZone, PreparedZoneCache } from './prepared-zone.js'
import { circle, largestZone, spikyStar, square } from './zones.fixtures.js'

const LARGEST = largestZone()

/** The scan of every pair of edges that the index replaces: the reference for which pair comes first. */
function everyPair(ring: readonly Position[]): [number, number] | undefined {
  const edges = ring.length - 1
  const o = (a: Position, b: Position, c: Position) =>
    Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
  const on = (a: Position, b: Position, p: Position) =>
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  for (let i = 0; i < edges; i++) {
    for (let j = i + 2; j < edges; j++) {
      if (i === 0 && j === edges - 1) continue
      const [a, b, c, d] = [ring[i], ring[i + 1], ring[j], ring[j + 1]] as Position[] as [
        Position,
        Position,
        Position,
        Position,
      ]
      const [o1, o2, o3, o4] = [o(a, b, c), o(a, b, d), o(c, d, a), o(c, d, b)]
      if (o1 !== o2 && o3 !== o4 && o1 && o2 && o3 && o4) return [i, j]
      if ((!o1 && on(a, b, c)) || (!o2 && on(a, b, d)) || (!o3 && on(c, d, a)) || (!o4 && on(c, d, b)))
        return [i, j]
    }
  }
  for (let i = 0; i < edges; i++) {
    const [a, b] = [ring[i], ring[i + 1]] as [Position, Position]
    if (a[0] === b[0] && a[1] === b[1]) return [i, i + 1]
  }
  return undefined
}

/** Deterministic pseudo-random numbers in [0, 1). */
const randomness = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}

describe('zone geometry at the size limit', () => {
  it('validates 20,000 positions through the edge index: a few edge tests per edge, not every pair', () => {
    const work: GeometryWork = { edgeTests: 0 }
    expect(parseGeometry(LARGEST, 'polygon', work)).toMatchObject({
      bbox: { maxLongitude: 1, minLatitude: expect.closeTo(-1, 5) },
    })
    // Every pair of edges of each ring alone would be 5 x 4,000^2 / 2 = 40,000,000 tests.
    expect(work.edgeTests).toBeGreaterThan(0)
    expect(work.edgeTests).toBeLessThan(20 * 20_000)

    const ring = circle(4000, 0, 0, 1)
    const alone: GeometryWork = { edgeTests: 0 }
    expect(selfIntersection(ring, alone)).toBeUndefined()
    expect(alone.edgeTests).toBeGreaterThan(0)
    expect(alone.edgeTests).toBeLessThan(10 * 4000)
  })

  it('reports the same first crossing as a scan of every pair', () => {
    const random = randomness(11)
    let crossing = 0
    for (let round = 0; round < 60; round++) {
      const n = 5 + Math.floor(random() * 150)
      // Wobbly circles (some cross themselves) and, every third, points on a coarse grid (touching, collinear).
      const ring: Position[] = []
      for (let i = 0; i < n - 1; i++) {
        if (round % 3 === 0) ring.push([Math.floor(random() * 8), Math.floor(random() * 8)])
        else {
          const a = (2 * Math.PI * i) / (n - 1)
          const r = 1 + (random() - 0.5) * (round % 3 === 1 ? 0.1 : 1.5)
          ring.push([r * Math.cos(a), r * Math.sin(a)])
        }
      }
      ring.push(ring[0] as Position)
      const expected = everyPair(ring)
      if (expected) crossing++
      expect(selfIntersection(ring)).toEqual(expected)
    }
    expect(crossing).toBeGreaterThan(10)
  })

  it('names the hole that leaves or crosses a large outer ring, as before', () => {
    const outer = circle(4000, 0, 0, 1)
    const leaving = circle(400, 0.9, 0, 0.2)
    expect(parseGeometry({ type: 'Polygon', coordinates: [outer, leaving] }, 'polygon')).toEqual({
      reasons: [
        { field: 'polygon.coordinates[1][0]', message: "a hole's positions must lie inside the outer ring" },
      ],
    })
  })

  it('refuses a zone over the position total before checking any ring', () => {
    const work: GeometryWork = { edgeTests: 0 }
    const rings = Array.from({ length: 6 }, (_, i) => circle(4000, i * 3, 0, 1))
    expect(
      parseGeometry({ type: 'MultiPolygon', coordinates: rings.map((r) => [r]) }, 'polygon', work),
    ).toEqual({
      reasons: [
        {
          field: 'polygon.coordinates',
          message: `must have at most ${MAX_TOTAL_POSITIONS} positions in all`,
        },
      ],
    })
    expect(work.edgeTests).toBe(0)
  })

  it('refuses a ring whose edges all overlap (a star of long spikes) once it has spent its edge tests', () => {
    const star = spikyStar()
    const work: GeometryWork = { edgeTests: 0 }
    expect(parseGeometry({ type: 'Polygon', coordinates: [star] }, 'polygon', work)).toEqual({
      reasons: [{ field: 'polygon.coordinates[0]', message: expect.stringContaining('too intricate') }],
    })
    expect(work.edgeTests).toBe(MAX_EDGE_TESTS + 1)
  })

  it('answers point tests like the plain even-odd rule, visiting a few edges each', () => {
    const polygons = polygonsOf(LARGEST as ZoneGeometry) as Polygon[]
    const prepared = PreparedZone.fromGeometry(LARGEST as ZoneGeometry)
    expect(prepared.positions).toBe(20_000)
    const random = randomness(5)
    const work: GeometryWork = { edgeTests: 0 }
    let inside = 0
    for (let i = 0; i < 400; i++) {
      const [x, y] = [(random() - 0.5) * 2.4, (random() - 0.5) * 2.4]
      const expected = containsPoint(polygons, x, y)
      if (expected) inside++
      expect(prepared.contains(x, y, work)).toBe(expected)
    }
    expect(inside).toBeGreaterThan(100)
    // A ray crosses at most a few edges of each ring here; scanning would visit 20,000 per point.
    expect(work.edgeTests / 400).toBeLessThan(20)
  })

  it('keeps prepared zones per revision, least recently used out first, within its positions', () => {
    const cache = new PreparedZoneCache(30)
    const small = PreparedZone.fromGeometry({ type: 'Polygon', coordinates: [square(0, 0, 1, 1)] })
    expect(small.positions).toBe(5)
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) cache.set('s', id, 1, small)
    expect(cache.size).toBe(30)
    expect(cache.get('s', 'a', 2)).toBeUndefined()
    expect(cache.get('s', 'a', 1)).toBe(small)
    cache.set('s', 'g', 1, small)
    // 'b' was the least recently used; 'a' was read just before.
    expect(cache.get('s', 'b', 1)).toBeUndefined()
    expect(cache.get('s', 'a', 1)).toBe(small)
    expect(cache.get('other', 'a', 1)).toBeUndefined()
    cache.set('s', 'a', 2, small)
    expect(cache.get('s', 'a', 1)).toBeUndefined()
    expect(cache.size).toBe(30)
  })
})
