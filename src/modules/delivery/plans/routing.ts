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

const EPSILON = 1e-9
const MAX_PASSES = 50

/**
 * Stop order for an open route from the depot: nearest neighbour (ties by index, so the same input
 * always gives the same order), then 2-opt moves (reverse a segment when that shortens the route)
 * until no move helps. Distances come from a matrix computed once; node 0 is the depot.
 */
export function orderStops(depot: Point, stops: readonly Point[]): number[] {
  const n = stops.length
  if (n <= 1) return stops.map((_, i) => i)
  const nodes = [depot, ...stops]
  const size = n + 1
  const distance = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const d = greatCircleKm(nodes[i] as Point, nodes[j] as Point)
      distance[i * size + j] = d
      distance[j * size + i] = d
    }
  }
  const d = (i: number, j: number) => distance[i * size + j] as number
  // Nearest neighbour over nodes 1..n, starting at the depot (0).
  const visited = new Uint8Array(size)
  const route = [0]
  visited[0] = 1
  for (let step = 0; step < n; step++) {
    const last = route[route.length - 1] as number
    let best = -1
    let bestDistance = Number.POSITIVE_INFINITY
    for (let j = 1; j < size; j++) {
      if (!visited[j] && d(last, j) < bestDistance - EPSILON) {
        best = j
        bestDistance = d(last, j)
      }
    }
    visited[best] = 1
    route.push(best)
  }
  // 2-opt on the open path: reversing route[i..k] swaps edges (i-1,i),(k,k+1) for (i-1,k),(i,k+1).
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let improved = false
    for (let i = 1; i < size - 1; i++) {
      for (let k = i + 1; k < size; k++) {
        const a = route[i - 1] as number
        const b = route[i] as number
        const c = route[k] as number
        const next = k + 1 < size ? (route[k + 1] as number) : -1
        const before = d(a, b) + (next >= 0 ? d(c, next) : 0)
        const after = d(a, c) + (next >= 0 ? d(b, next) : 0)
        if (after < before - EPSILON) {
          for (let lo = i, hi = k; lo < hi; lo++, hi--) {
            const swap = route[lo] as number
            route[lo] = route[hi] as number
            route[hi] = swap
          }
          improved = true
        }
      }
    }
    if (!improved) break
  }
  return route.slice(1).map((node) => node - 1)
}
