import { greatCircleKm, type PlanningProblem, type PlanningStop } from '../planning-engine/index.js'
import type { Point } from './routing.js'

/** Below this many new candidates the engine gets them all: the search is cheap enough. */
export const SHORTLIST_FROM = 150

/** The engine gets at least this many new candidates, and at least FACTOR times the estimate. */
const MIN_POOL = 120
const FACTOR = 4

export interface Shortlist {
  /** The new stops handed to the engine (every stop not in `cut`). */
  kept: PlanningStop[]
  /** New stops left out before the search: the van's day cannot hold them with the nearer ones. */
  cut: { stopId: string; reason: 'shift' | 'capacity' }[]
  /** New stops a greedy nearest-neighbour day from the start serves (the estimate). */
  estimate: number
}

/**
 * Cluster first: when one van can take only a fraction of the new candidates (1,000 shipments over
 * a large area, of which a day's shift holds a few dozen), the engine is handed the ones nearest
 * its route (least detour from start to end), FACTOR times as many as a greedy day serves (and
 * never fewer than MIN_POOL), instead of all of them. The engine serves the most stops first, and
 * the most stops a shift holds lie near the start: a stop beyond the pool would cost the route more
 * driving than any of the FACTOR times as many nearer ones. On the large-zones bench (703
 * candidates, 37-38 served) the shortlist gives the same count and a route as short (see
 * bench/RESULTS.md); the search on a fifth of the stops settles where the full one was cut by its
 * clock. The greedy day honours the shift, the windows and the capacity but not breaks, so it
 * estimates on the generous side; ignoring windows in the ranking is what the factor is for.
 *
 * `problem` holds one vehicle; `ownIds` are the plan's own stops (never cut, served first in the
 * estimate's load); `speedKmh` the speed great-circle distances are driven at for the estimate.
 */
export function shortlist(
  problem: PlanningProblem,
  points: readonly Point[],
  ownIds: ReadonlySet<string>,
  speedKmh: number,
): Shortlist {
  const fresh = problem.stops.filter((s) => !ownIds.has(s.id))
  const vehicle = problem.vehicles[0]
  if (fresh.length <= SHORTLIST_FROM || !vehicle)
    return { kept: [...problem.stops], cut: [], estimate: fresh.length }
  const seconds = (a: number, b: number) =>
    (greatCircleKm(points[a] as Point, points[b] as Point) / speedKmh) * 3600
  const shift = vehicle.shift ?? [0, Number.POSITIVE_INFINITY]
  const maxWeight = vehicle.maxWeight ?? Number.POSITIVE_INFINITY
  const maxVolume = vehicle.maxVolume ?? Number.POSITIVE_INFINITY

  // The greedy day: from the start, always the nearest stop that can still be served and left
  // in time to reach the end by the shift's end.
  const open = new Set(problem.stops)
  let at = vehicle.start
  let time = shift[0]
  let weight = 0
  let volume = 0
  let served = 0
  let capacityStopped = false
  for (;;) {
    let best: { stop: PlanningStop; leave: number; travel: number } | null = null
    let heavy = false
    for (const stop of open) {
      if (weight + (stop.weight ?? 0) > maxWeight || volume + (stop.volume ?? 0) > maxVolume) {
        heavy = true
        continue
      }
      const travel = seconds(at, stop.location)
      if (best && travel >= best.travel) continue
      const arrival = time + travel
      const begin = beginAt(stop, arrival)
      if (begin === null) continue
      const leave = begin + (stop.service ?? 0)
      const home = vehicle.end === null ? 0 : seconds(stop.location, vehicle.end)
      if (leave + home > shift[1]) continue
      best = { stop, leave, travel }
    }
    if (!best) {
      capacityStopped = heavy
      break
    }
    open.delete(best.stop)
    at = best.stop.location
    time = best.leave
    weight += best.stop.weight ?? 0
    volume += best.stop.volume ?? 0
    if (!ownIds.has(best.stop.id)) served++
  }

  const pool = Math.max(MIN_POOL, FACTOR * served)
  if (fresh.length <= pool) return { kept: [...problem.stops], cut: [], estimate: served }
  const start = vehicle.start
  const end = vehicle.end
  const direct = end === null ? 0 : seconds(start, end)
  const detour = new Map(
    fresh.map((s) => [
      s.id,
      seconds(start, s.location) + (end === null ? 0 : seconds(s.location, end) - direct),
    ]),
  )
  // Ties by id: the same candidates give the same shortlist.
  const ranked = [...fresh].sort(
    (a, b) => (detour.get(a.id) as number) - (detour.get(b.id) as number) || (a.id < b.id ? -1 : 1),
  )
  const chosen = new Set(ranked.slice(0, pool).map((s) => s.id))
  const reason = capacityStopped ? 'capacity' : 'shift'
  return {
    // In the order given: the engine's answer depends on it.
    kept: problem.stops.filter((s) => ownIds.has(s.id) || chosen.has(s.id)),
    cut: fresh.filter((s) => !chosen.has(s.id)).map((s) => ({ stopId: s.id, reason })),
    estimate: served,
  }
}

/** When service can begin at a stop reached at `arrival`: the first window still open; null if none. */
function beginAt(stop: PlanningStop, arrival: number): number | null {
  if (!stop.windows || stop.windows.length === 0) return arrival
  for (const [open, close] of stop.windows) if (arrival <= close) return Math.max(arrival, open)
  return null
}
