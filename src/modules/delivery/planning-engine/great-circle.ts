/** A point in WGS84 degrees. */
export interface Point {
  latitude: number
  longitude: number
}

const EARTH_RADIUS_KM = 6371.0088
const rad = (deg: number) => (deg * Math.PI) / 180

/** Great-circle distance in km (haversine): no road network, so it works offline and is deterministic. */
export function greatCircleKm(a: Point, b: Point): number {
  const dLat = rad(b.latitude - a.latitude)
  const dLon = rad(b.longitude - a.longitude)
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Travel times (seconds) and distances (metres) between points at a steady speed, great-circle. */
export function greatCircleMatrixOf(points: readonly Point[], speedKmh: number) {
  const size = points.length
  const distances = new Float64Array(size * size)
  const durations = new Float64Array(size * size)
  // The distance is symmetric (greatCircleKm gives the same both ways, to the bit): each pair
  // is computed once, for 1,000 points half a million times instead of a million.
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const km = greatCircleKm(points[i] as Point, points[j] as Point)
      const metres = km * 1000
      const seconds = (km / speedKmh) * 3600
      distances[i * size + j] = metres
      distances[j * size + i] = metres
      durations[i * size + j] = seconds
      durations[j * size + i] = seconds
    }
  }
  return { size, durations, distances }
}
