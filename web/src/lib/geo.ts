// Plain geometry over GeoJSON positions ([longitude, latitude]), for the maps and for telling why
// autobatch left a shipment out. The server decides zones the same way (even-odd, holes excluded).

export type Position = [number, number]
export type Ring = Position[]
export interface ZonePolygon {
  type: string
  coordinates: unknown[]
}

/** The outer-and-hole rings of each polygon of a Polygon or MultiPolygon; [] for anything else. */
export function polygonsOf(geometry: ZonePolygon): Ring[][] {
  const isPosition = (p: unknown): p is Position =>
    Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number'
  const isRing = (r: unknown): r is Ring => Array.isArray(r) && r.every(isPosition)
  const isPolygon = (p: unknown): p is Ring[] => Array.isArray(p) && p.every(isRing)
  if (geometry.type === 'Polygon' && isPolygon(geometry.coordinates)) return [geometry.coordinates]
  if (geometry.type === 'MultiPolygon' && geometry.coordinates.every(isPolygon))
    return geometry.coordinates as Ring[][]
  return []
}

/** Even-odd ray casting; a point on an edge may fall either way. */
export function inRing(point: Position, ring: Ring): boolean {
  const [x, y] = point
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as Position
    const [xj, yj] = ring[j] as Position
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/** Inside the outer ring of one of the polygons and in none of its holes. */
export function inZone(point: Position, geometry: ZonePolygon): boolean {
  return polygonsOf(geometry).some(
    ([outer, ...holes]) =>
      outer !== undefined && inRing(point, outer) && !holes.some((hole) => inRing(point, hole)),
  )
}

/** A closed ring (first position repeated at the end), as GeoJSON wants; at least 3 distinct corners. */
export function closeRing(corners: Position[]): Ring {
  if (corners.length === 0) return []
  const first = corners[0] as Position
  const last = corners[corners.length - 1] as Position
  return first[0] === last[0] && first[1] === last[1] ? corners : [...corners, first]
}

/** The corners of a ring without the closing repeat. */
export function openRing(ring: Ring): Position[] {
  if (ring.length < 2) return ring
  const first = ring[0] as Position
  const last = ring[ring.length - 1] as Position
  return first[0] === last[0] && first[1] === last[1] ? ring.slice(0, -1) : ring
}

/**
 * Corners typed as text, one "latitude, longitude" per line (the order people read them), as
 * GeoJSON positions; errors name the line.
 */
export function parseCorners(text: string): { corners: Position[]; problems: string[] } {
  const corners: Position[] = []
  const problems: string[] = []
  text
    .split('\n')
    .map((line) => line.trim())
    .forEach((line, index) => {
      if (!line) return
      const parts = line.split(/[,;\s]+/).filter(Boolean)
      const lat = Number(parts[0])
      const lng = Number(parts[1])
      if (parts.length !== 2 || !Number.isFinite(lat) || !Number.isFinite(lng))
        problems.push(`Line ${index + 1}: write "latitude, longitude", e.g. -33.92, 18.42`)
      else if (lat < -90 || lat > 90 || lng < -180 || lng > 180)
        problems.push(`Line ${index + 1}: latitude must be -90..90 and longitude -180..180`)
      else corners.push([lng, lat])
    })
  if (problems.length === 0 && openRing(corners).length < 3) problems.push('A zone needs at least 3 corners.')
  return { corners: openRing(corners), problems }
}

export function formatCorners(corners: Position[]): string {
  return corners.map(([lng, lat]) => `${lat.toFixed(5)}, ${lng.toFixed(5)}`).join('\n')
}
