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

/** Length of the open route depot -> stops[order[0]] -> ... (no return leg). */
export function routeKm(depot: Point, stops: readonly Point[], order: readonly number[]): number {
  let total = 0
  let from = depot
  for (const index of order) {
    const to = stops[index] as Point
    total += greatCircleKm(from, to)
    from = to
  }
  return total
}
