import type { Reason } from '../../../errors.js'
import {
  exhausted,
  firstSelfIntersection,
  type GeometryWork,
  holeProblem,
  IndexedRing,
  type Position,
} from './rings.js'

export type { GeometryWork, Position }
/** Outer ring first, then holes; each ring closed (first position = last). */
export type Polygon = readonly (readonly Position[])[]

export interface BoundingBox {
  minLongitude: number
  minLatitude: number
  maxLongitude: number
  maxLatitude: number
}

export interface ZoneGeometry {
  type: 'Polygon' | 'MultiPolygon'
  coordinates: unknown
}

/**
 * Upper bounds on a zone's size (docs/api-guide.md). Validation and the point test go through an
 * edge index (rings.ts), so a zone at both limits costs milliseconds, not seconds; the limits keep
 * the request body, the stored row and the cached index of one zone bounded.
 */
export const MAX_RING_POSITIONS = 4_000
export const MAX_TOTAL_POSITIONS = 20_000
/**
 * Edge visits one zone's validation may spend. Real boundaries visit a handful of edges per edge;
 * a shape whose edges' bounding boxes all overlap (thousands of long thin spikes from one centre)
 * would need millions, so it is refused rather than checked for a quarter of a second.
 */
export const MAX_EDGE_TESTS = 1_000_000
const TOO_INTRICATE = `is too intricate to check (its edges' bounding boxes overlap too much: over ${MAX_EDGE_TESTS} edge tests); simplify it`

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/**
 * Validates a GeoJSON Polygon or MultiPolygon (RFC 7946): rings closed, at least four positions,
 * longitude -180..180, latitude -90..90, no ring crossing itself. Returns the polygons and their
 * bounding box, or one reason per problem, each naming where it is (`polygon.coordinates[0][2]`).
 */
export function parseGeometry(value: unknown, field: string, work?: GeometryWork): ParsedGeometry {
  const run = validate(value, field, work)
  let step = run.next()
  while (!step.done) step = run.next()
  return step.value
}

/**
 * parseGeometry that lets other requests run between large rings (each at most 4,000 positions,
 * a few milliseconds), so one zone at the size limit never holds the event loop for its whole check.
 */
export async function parseGeometryYielding(value: unknown, field: string): Promise<ParsedGeometry> {
  const run = validate(value, field)
  let step = run.next()
  while (!step.done) {
    await new Promise((resolve) => setImmediate(resolve))
    step = run.next()
  }
  return step.value
}

export type ParsedGeometry =
  | { polygons: Polygon[]; rings: IndexedRing[][]; bbox: BoundingBox }
  | { reasons: Reason[] }

/** Rings of at least this many positions are worth a pause after them (parseGeometryYielding). */
const PAUSE_AFTER_POSITIONS = 500

function* validate(value: unknown, field: string, work?: GeometryWork): Generator<void, ParsedGeometry> {
  const geometry = value as Partial<ZoneGeometry> | null
  if (geometry === null || typeof geometry !== 'object' || Array.isArray(geometry))
    return { reasons: [{ field, message: 'must be a GeoJSON Polygon or MultiPolygon object' }] }
  if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')
    return { reasons: [{ field: `${field}.type`, message: 'must be Polygon or MultiPolygon' }] }
  const at = `${field}.coordinates`
  const raw = geometry.coordinates
  const list = geometry.type === 'Polygon' ? [raw] : raw
  if (!Array.isArray(list) || list.length === 0 || !list.every((p) => Array.isArray(p) && p.length > 0))
    return {
      reasons: [
        {
          field: at,
          message: `must hold ${geometry.type === 'Polygon' ? 'one or more rings' : 'one or more polygons of rings'}`,
        },
      ],
    }
  const reasons: Reason[] = []
  // Counted before any ring is checked, so an oversized zone costs one pass over its arrays.
  let total = 0
  for (const rings of list as unknown[][]) {
    for (const ring of rings) total += Array.isArray(ring) ? ring.length : 0
  }
  if (total > MAX_TOTAL_POSITIONS)
    return { reasons: [{ field: at, message: `must have at most ${MAX_TOTAL_POSITIONS} positions in all` }] }
  const budget: GeometryWork = work ?? { edgeTests: 0 }
  budget.limit = MAX_EDGE_TESTS
  const polygons: Polygon[] = []
  const indexed: IndexedRing[][] = []
  for (const [p, rings] of (list as unknown[][]).entries()) {
    const polygonAt = geometry.type === 'Polygon' ? at : `${at}[${p}]`
    const polygon: Position[][] = []
    const polygonRings: IndexedRing[] = []
    for (const [r, ring] of rings.entries()) {
      const ringAt = `${polygonAt}[${r}]`
      const before = reasons.length
      const checked = checkRing(ring, ringAt, reasons, budget)
      if (exhausted(budget))
        return { reasons: [...reasons.slice(0, before), { field: ringAt, message: TOO_INTRICATE }] }
      if (checked) {
        polygon.push(checked.positions)
        polygonRings.push(checked.ring)
      }
      if (Array.isArray(ring) && ring.length >= PAUSE_AFTER_POSITIONS) yield
    }
    const before = reasons.length
    if (polygon.length === rings.length) checkHoles(polygonRings, polygonAt, reasons, budget)
    if (polygonRings.length > 1 && (polygonRings[0]?.positions ?? 0) >= PAUSE_AFTER_POSITIONS) yield
    if (exhausted(budget))
      return { reasons: [...reasons.slice(0, before), { field: polygonAt, message: TOO_INTRICATE }] }
    polygons.push(polygon)
    indexed.push(polygonRings)
  }
  if (reasons.length > 0) return { reasons }
  return { polygons, rings: indexed, bbox: boxOfRings(indexed) }
}

function checkRing(
  ring: unknown,
  at: string,
  reasons: Reason[],
  work?: GeometryWork,
): { positions: Position[]; ring: IndexedRing } | undefined {
  if (!Array.isArray(ring) || ring.length < 4) {
    reasons.push({
      field: at,
      message: 'a ring needs at least four positions (the last repeating the first)',
    })
    return undefined
  }
  if (ring.length > MAX_RING_POSITIONS) {
    reasons.push({ field: at, message: `a ring may have at most ${MAX_RING_POSITIONS} positions` })
    return undefined
  }
  // One pass: each pair checked and copied into flat coordinates (what the index and the stored
  // shape are made of), the pair itself kept as sent (no copy for each of up to 20,000 positions).
  const n = ring.length
  const xs = new Float64Array(n)
  const ys = new Float64Array(n)
  const positions: Position[] = new Array(n)
  let valid = true
  for (let i = 0; i < n; i++) {
    const pair = ring[i] as unknown[]
    if (!Array.isArray(pair) || pair.length < 2 || !isNumber(pair[0]) || !isNumber(pair[1])) {
      reasons.push({ field: `${at}[${i}]`, message: 'must be [longitude, latitude] numbers' })
      valid = false
      continue
    }
    const longitude = pair[0]
    const latitude = pair[1]
    if (longitude < -180 || longitude > 180) {
      reasons.push({ field: `${at}[${i}][0]`, message: 'longitude must be between -180 and 180' })
      valid = false
    }
    if (latitude < -90 || latitude > 90) {
      reasons.push({ field: `${at}[${i}][1]`, message: 'latitude must be between -90 and 90' })
      valid = false
    }
    xs[i] = longitude
    ys[i] = latitude
    // A third value (altitude) is dropped.
    positions[i] = pair.length === 2 ? (pair as unknown as Position) : [longitude, latitude]
  }
  if (!valid) return undefined
  if (xs[0] !== xs[n - 1] || ys[0] !== ys[n - 1]) {
    reasons.push({ field: at, message: 'the ring is not closed: the last position must equal the first' })
    return undefined
  }
  const indexed = new IndexedRing({ xs, ys })
  const crossing = ringProblem(indexed, work)
  if (crossing) {
    reasons.push({
      field: at,
      message: `the ring intersects itself (edges ${crossing[0]} and ${crossing[1]})`,
    })
    return undefined
  }
  return { positions, ring: indexed }
}

/** The first pair of non-adjacent edges that touch or cross (edge i runs from position i to i+1), if any. */
export function selfIntersection(
  ring: readonly Position[],
  work?: GeometryWork,
): [number, number] | undefined {
  return ringProblem(new IndexedRing(ring), work)
}

function ringProblem(ring: IndexedRing, work?: GeometryWork): [number, number] | undefined {
  const crossing = firstSelfIntersection(ring, work)
  if (crossing) return crossing
  // A zero-length edge (a repeated position) is a degenerate ring too.
  const { xs, ys } = ring
  for (let i = 0; i < ring.edges; i++) {
    if (xs[i] === xs[i + 1] && ys[i] === ys[i + 1]) return [i, i + 1]
  }
  return undefined
}

/**
 * Each hole lies inside its polygon's outer ring: every position inside or on the outer ring, and
 * no edge of the hole crossing an edge of the outer ring (touching is allowed, as in GeoJSON's
 * simple-features model). A hole outside its shell would make the even-odd test disagree with
 * what the map shows.
 */
function checkHoles(polygon: readonly IndexedRing[], at: string, reasons: Reason[], work?: GeometryWork) {
  const [outer, ...holes] = polygon
  if (!outer) return
  holes.forEach((hole, h) => {
    const ringAt = `${at}[${h + 1}]`
    if (exhausted(work)) return
    const problem = holeProblem(hole, outer, work)
    if (!problem) return
    if ('outside' in problem) {
      reasons.push({
        field: `${ringAt}[${problem.outside}]`,
        message: "a hole's positions must lie inside the outer ring",
      })
      return
    }
    const [edge, outerEdge] = problem.crossing
    reasons.push({
      field: ringAt,
      message: `edge ${edge} of this hole crosses edge ${outerEdge} of the outer ring`,
    })
  })
}

/** The bounding box of the outer rings (what boundingBox gives, from the rings' own boxes). */
function boxOfRings(polygons: readonly (readonly IndexedRing[])[]): BoundingBox {
  const box = { minLongitude: 180, minLatitude: 90, maxLongitude: -180, maxLatitude: -90 }
  for (const [outer] of polygons) {
    if (!outer) continue
    box.minLongitude = Math.min(box.minLongitude, outer.minX)
    box.maxLongitude = Math.max(box.maxLongitude, outer.maxX)
    box.minLatitude = Math.min(box.minLatitude, outer.minY)
    box.maxLatitude = Math.max(box.maxLatitude, outer.maxY)
  }
  return box
}

export function boundingBox(polygons: readonly Polygon[]): BoundingBox {
  const box = { minLongitude: 180, minLatitude: 90, maxLongitude: -180, maxLatitude: -90 }
  for (const polygon of polygons) {
    for (const [longitude, latitude] of polygon[0] ?? []) {
      box.minLongitude = Math.min(box.minLongitude, longitude)
      box.maxLongitude = Math.max(box.maxLongitude, longitude)
      box.minLatitude = Math.min(box.minLatitude, latitude)
      box.maxLatitude = Math.max(box.maxLatitude, latitude)
    }
  }
  return box
}

/** Even-odd ray casting: is the point inside this closed ring? (Points on an edge may fall either way.) */
export function inRing(ring: readonly Position[], longitude: number, latitude: number): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as Position
    const [xj, yj] = ring[j] as Position
    if (yi > latitude !== yj > latitude && longitude < ((xj - xi) * (latitude - yi)) / (yj - yi) + xi) {
      inside = !inside
    }
  }
  return inside
}

/** Inside some polygon's outer ring and in none of that polygon's holes; every polygon is tried. */
export function containsPoint(polygons: readonly Polygon[], longitude: number, latitude: number): boolean {
  return polygons.some((polygon) => {
    const [outer, ...holes] = polygon
    if (!outer || !inRing(outer, longitude, latitude)) return false
    return !holes.some((hole) => inRing(hole, longitude, latitude))
  })
}

/** The polygons of a stored (already validated) geometry. */
export function polygonsOf(geometry: ZoneGeometry): Polygon[] {
  return (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Polygon[]
}
