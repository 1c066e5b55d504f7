import { greatCircleKm, type Point } from '../planning-engine/index.js'

export { greatCircleKm, type Point }

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
