import type { Reason } from '../../../errors.js'

/** [longitude, latitude] in WGS84, as GeoJSON writes it. */
export type Position = readonly [number, number]
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

/** Upper bounds that keep validation (quadratic in a ring's size) well under a few milliseconds. */
const MAX_RING_POSITIONS = 4_000
const MAX_TOTAL_POSITIONS = 20_000

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/**
 * Validates a GeoJSON Polygon or MultiPolygon (RFC 7946): rings closed, at least four positions,
 * longitude -180..180, latitude -90..90, no ring crossing itself. Returns the polygons and their
 * bounding box, or one reason per problem, each naming where it is (`polygon.coordinates[0][2]`).
 */
export function parseGeometry(
  value: unknown,
  field: string,
): { polygons: Polygon[]; bbox: BoundingBox } | { reasons: Reason[] } {
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
  const polygons: Polygon[] = []
  let total = 0
  list.forEach((rings: unknown[], p) => {
    const polygonAt = geometry.type === 'Polygon' ? at : `${at}[${p}]`
    const polygon: Position[][] = []
    rings.forEach((ring, r) => {
      const ringAt = `${polygonAt}[${r}]`
      const checked = checkRing(ring, ringAt, reasons)
      if (checked) {
        total += checked.length
        polygon.push(checked)
      }
    })
    if (polygon.length === rings.length) checkHoles(polygon, polygonAt, reasons)
    polygons.push(polygon)
  })
  if (total > MAX_TOTAL_POSITIONS)
    reasons.push({ field: at, message: `must have at most ${MAX_TOTAL_POSITIONS} positions in all` })
  if (reasons.length > 0) return { reasons }
  return { polygons, bbox: boundingBox(polygons) }
}

function checkRing(ring: unknown, at: string, reasons: Reason[]): Position[] | undefined {
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
  const positions: Position[] = []
  let valid = true
  ring.forEach((position: unknown, i) => {
    const pair = position as unknown[]
    if (!Array.isArray(pair) || pair.length < 2 || !isNumber(pair[0]) || !isNumber(pair[1])) {
      reasons.push({ field: `${at}[${i}]`, message: 'must be [longitude, latitude] numbers' })
      valid = false
      return
    }
    const [longitude, latitude] = pair as [number, number]
    if (longitude < -180 || longitude > 180) {
      reasons.push({ field: `${at}[${i}][0]`, message: 'longitude must be between -180 and 180' })
      valid = false
    }
    if (latitude < -90 || latitude > 90) {
      reasons.push({ field: `${at}[${i}][1]`, message: 'latitude must be between -90 and 90' })
      valid = false
    }
    positions.push([longitude, latitude])
  })
  if (!valid) return undefined
  const first = positions[0] as Position
  const last = positions[positions.length - 1] as Position
  if (first[0] !== last[0] || first[1] !== last[1]) {
    reasons.push({ field: at, message: 'the ring is not closed: the last position must equal the first' })
    return undefined
  }
  const crossing = selfIntersection(positions)
  if (crossing) {
    reasons.push({
      field: at,
      message: `the ring intersects itself (edges ${crossing[0]} and ${crossing[1]})`,
    })
    return undefined
  }
  return positions
}

const orientation = (a: Position, b: Position, c: Position) =>
  Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

const onSegment = (a: Position, b: Position, p: Position) =>
  Math.min(a[0], b[0]) <= p[0] &&
  p[0] <= Math.max(a[0], b[0]) &&
  Math.min(a[1], b[1]) <= p[1] &&
  p[1] <= Math.max(a[1], b[1])

function segmentsIntersect(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orientation(a, b, c)
  const o2 = orientation(a, b, d)
  const o3 = orientation(c, d, a)
  const o4 = orientation(c, d, b)
  if (o1 !== o2 && o3 !== o4 && o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0) return true
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  )
}

/** The first pair of non-adjacent edges that touch or cross (edge i runs from position i to i+1), if any. */
export function selfIntersection(ring: readonly Position[]): [number, number] | undefined {
  const edges = ring.length - 1
  for (let i = 0; i < edges; i++) {
    const a = ring[i] as Position
    const b = ring[i + 1] as Position
    const minX = Math.min(a[0], b[0])
    const maxX = Math.max(a[0], b[0])
    const minY = Math.min(a[1], b[1])
    const maxY = Math.max(a[1], b[1])
    for (let j = i + 1; j < edges; j++) {
      // Adjacent edges share a position by construction; the closing edge is adjacent to the first.
      if (j === i + 1 || (i === 0 && j === edges - 1)) continue
      const c = ring[j] as Position
      const d = ring[j + 1] as Position
      if (Math.max(c[0], d[0]) < minX || Math.min(c[0], d[0]) > maxX) continue
      if (Math.max(c[1], d[1]) < minY || Math.min(c[1], d[1]) > maxY) continue
      if (segmentsIntersect(a, b, c, d)) return [i, j]
    }
  }
  // A zero-length edge (a repeated position) is a degenerate ring too.
  for (let i = 0; i < edges; i++) {
    const a = ring[i] as Position
    const b = ring[i + 1] as Position
    if (a[0] === b[0] && a[1] === b[1]) return [i, i + 1]
  }
  return undefined
}

/**
 * Each hole lies inside its polygon's outer ring: every position inside or on the outer ring, and
 * no edge of the hole crossing an edge of the outer ring (touching is allowed, as in GeoJSON's
 * simple-features model). A hole outside its shell would make the even-odd test disagree with
 * what the map shows.
 */
function checkHoles(polygon: readonly Position[][], at: string, reasons: Reason[]) {
  const [outer, ...holes] = polygon
  if (!outer) return
  holes.forEach((hole, h) => {
    const ringAt = `${at}[${h + 1}]`
    const outside = hole.findIndex(
      (p) =>
        !inRing(outer, p[0], p[1]) &&
        !outer.some(
          (a, i) =>
            i > 0 &&
            orientation(outer[i - 1] as Position, a, p) === 0 &&
            onSegment(outer[i - 1] as Position, a, p),
        ),
    )
    if (outside >= 0) {
      reasons.push({
        field: `${ringAt}[${outside}]`,
        message: "a hole's positions must lie inside the outer ring",
      })
      return
    }
    for (let i = 1; i < hole.length; i++) {
      for (let j = 1; j < outer.length; j++) {
        if (
          properlyCross(
            hole[i - 1] as Position,
            hole[i] as Position,
            outer[j - 1] as Position,
            outer[j] as Position,
          )
        ) {
          reasons.push({
            field: ringAt,
            message: `edge ${i - 1} of this hole crosses edge ${j - 1} of the outer ring`,
          })
          return
        }
      }
    }
  })
}

/** The segments cross at a point interior to both (touching at an end or along a line does not count). */
function properlyCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orientation(a, b, c)
  const o2 = orientation(a, b, d)
  const o3 = orientation(c, d, a)
  const o4 = orientation(c, d, b)
  return o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0 && o1 !== o2 && o3 !== o4
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
