import type { PlanningProblem, PlanningResult } from './types.js'

/**
 * An independent check of a plan against its problem: written apart from the engine (no shared code
 * but the types) so that a bug in one is not hidden by the same bug in the other. It recomputes every
 * time and distance from the matrix and the reported service starts and lists what is wrong.
 */
export interface CheckReport {
  violations: string[]
  /** Total distance recomputed from the matrix. */
  distance: number
  served: number
  vehiclesUsed: number
}

const TOLERANCE = 1e-6

export function checkPlan(problem: PlanningProblem, plan: PlanningResult): CheckReport {
  const violations: string[] = []
  const { size } = problem.matrix
  const dur = (a: number | null, b: number | null) =>
    a === null || b === null ? 0 : Number(problem.matrix.durations[a * size + b])
  const dist = (a: number | null, b: number | null) =>
    a === null || b === null
      ? 0
      : Number((problem.matrix.distances ?? problem.matrix.durations)[a * size + b])
  const stops = new Map(problem.stops.map((s) => [s.id, s]))
  const vehicles = new Map(problem.vehicles.map((v) => [v.id, v]))
  const seen = new Set<string>()
  const usedVehicles = new Set<string>()
  let total = 0
  let served = 0

  for (const route of plan.routes) {
    const vehicle = vehicles.get(route.vehicleId)
    if (!vehicle) {
      violations.push(`route of unknown vehicle ${route.vehicleId}`)
      continue
    }
    if (usedVehicles.has(vehicle.id)) violations.push(`vehicle ${vehicle.id} has two routes`)
    usedVehicles.add(vehicle.id)
    const [shiftStart, shiftEnd] = vehicle.shift ?? [0, Number.POSITIVE_INFINITY]
    if (route.departure < shiftStart - TOLERANCE) violations.push(`${vehicle.id} leaves before its shift`)
    let weight = 0
    let volume = 0
    let length = 0
    let place: number | null = vehicle.start
    let free = route.departure
    const breaksAfter = (count: number) => route.breaks.filter((b) => b.afterVisits === count)
    const checkLeg = (count: number, to: number | null, begins: number, label: string) => {
      const travel = dur(place, to)
      if (!Number.isFinite(travel)) violations.push(`${label} is unreachable`)
      const pause = breaksAfter(count).reduce((s, b) => s + (b.end - b.start), 0)
      if (free + travel + pause > begins + TOLERANCE)
        violations.push(`${label} begins before the vehicle can be there`)
      for (const b of breaksAfter(count)) {
        if (b.start < free - TOLERANCE || b.end > begins + TOLERANCE)
          violations.push(`${label}: break outside its gap`)
      }
      length += dist(place, to)
    }
    route.visits.forEach((visit, i) => {
      const stop = stops.get(visit.stopId)
      if (!stop) {
        violations.push(`unknown stop ${visit.stopId}`)
        return
      }
      if (seen.has(stop.id)) violations.push(`stop ${stop.id} visited twice`)
      seen.add(stop.id)
      served++
      if (stop.vehicleId && stop.vehicleId !== vehicle.id)
        violations.push(`stop ${stop.id} needs ${stop.vehicleId}`)
      for (const skill of stop.skills ?? []) {
        if (!(vehicle.skills ?? []).includes(skill)) violations.push(`stop ${stop.id} needs skill ${skill}`)
      }
      checkLeg(i, stop.location, visit.start, `stop ${stop.id}`)
      const windows =
        stop.windows && stop.windows.length > 0 ? stop.windows : [[-Infinity, Infinity] as const]
      if (!windows.some(([a, b]) => visit.start >= a - TOLERANCE && visit.start <= b + TOLERANCE)) {
        violations.push(`stop ${stop.id} served at ${visit.start}, outside its windows`)
      }
      weight += stop.weight ?? 0
      volume += stop.volume ?? 0
      place = stop.location
      free = visit.start + (stop.service ?? 0)
    })
    checkLeg(route.visits.length, vehicle.end, route.arrival, `end of ${vehicle.id}`)
    if (route.arrival > shiftEnd + TOLERANCE) violations.push(`${vehicle.id} ends after its shift`)
    for (const b of vehicle.breaks ?? []) {
      const taken = route.breaks.some(
        (t) =>
          t.start >= b.earliest - TOLERANCE &&
          t.start <= b.latest + TOLERANCE &&
          t.end - t.start >= b.duration - TOLERANCE,
      )
      if (route.arrival > b.earliest + TOLERANCE && !taken) violations.push(`${vehicle.id} misses a break`)
    }
    if (weight > (vehicle.maxWeight ?? Infinity) + TOLERANCE) violations.push(`${vehicle.id} over its weight`)
    if (volume > (vehicle.maxVolume ?? Infinity) + TOLERANCE) violations.push(`${vehicle.id} over its volume`)
    if (route.visits.length > (vehicle.maxStops ?? Infinity)) violations.push(`${vehicle.id} over its stops`)
    if (length > (vehicle.maxDistance ?? Infinity) + TOLERANCE)
      violations.push(`${vehicle.id} over its distance`)
    if (Math.abs(length - route.distance) > 1e-6 * Math.max(1, length)) {
      violations.push(`${vehicle.id} reports ${route.distance}, the matrix says ${length}`)
    }
    total += length
  }

  const left = new Set(plan.unassigned.map((u) => u.stopId))
  for (const stop of problem.stops) {
    if (!seen.has(stop.id) && !left.has(stop.id))
      violations.push(`stop ${stop.id} neither served nor left out`)
    if (seen.has(stop.id) && left.has(stop.id)) violations.push(`stop ${stop.id} both served and left out`)
  }

  // Fixed stops stay on their vehicle, in their order.
  const fixed = new Set(problem.fixedStopIds ?? [])
  for (const initial of problem.initialRoutes ?? []) {
    const kept = initial.stopIds.filter((id) => fixed.has(id))
    const route = plan.routes.find((r) => r.vehicleId === initial.vehicleId)
    const order = (route?.visits ?? []).map((v) => v.stopId).filter((id) => fixed.has(id))
    if (kept.join('\n') !== order.join('\n')) violations.push(`fixed stops of ${initial.vehicleId} moved`)
  }
  return { violations, distance: total, served, vehiclesUsed: usedVehicles.size }
}
