import type { AppDeps } from '../../../platform/deps.js'
import type { PlanningMatrix, UnassignedReason } from '../planning-engine/index.js'
import type { Unrouted } from './autobatch.messages.js'
import type { StopTimes } from './autobatch.repository.js'
import { pointOf, type VehicleRow } from './plan-day.problem.js'
import { DEFAULT_SERVICE_MINUTES, settingNumber, solvePlan, travelMatrix } from './plan-engine.js'
import { routeEnds, routeProblem } from './plan-route.problem.js'
import type { PlanStopRow } from './plan-route.repository.js'
import type { LockedPlan } from './plans.repository.js'
import type { Point } from './routing.js'

/** What re-optimising plans from (read in a transaction; compared field for field before writing). */
export interface ReoptimiseInput {
  plan: LockedPlan
  vehicle: VehicleRow | null
  /** The plan's stops in their current order. */
  stops: PlanStopRow[]
  timeZone: string
  serviceMinutes: string | null
  speedKmh: string | null
}

export interface Reoptimised {
  /** Every stop of the plan in its new order, with the planned times to store. */
  stops: { row: PlanStopRow; times: StopTimes }[]
  /** How many stops at the head are kept in place. */
  kept: number
  /** Open stops no route reaches (they come last, without planned times). */
  unrouted: { row: PlanStopRow; why: Unrouted }[]
  distanceKm: number
}

/** A stop is done with once it is delivered, failed, returned, or its driver reported arriving there. */
const VISITED = new Set(['Delivered', 'Failed', 'Returned'])
const visited = (s: PlanStopRow) => VISITED.has(s.status) || s.reported !== null
/** Open: still to be driven to. A cancelled stop is neither: it is not visited, and stays where it is. */
const open = (s: PlanStopRow) => !visited(s) && s.status !== 'Cancelled'

const WHY: Record<UnassignedReason, Exclude<Unrouted, 'noLocation'>> = {
  window: 'outsideWindows',
  shift: 'outsideShift',
  capacity: 'outsideShift',
  maxStops: 'outsideShift',
  maxDistance: 'outsideShift',
  unreachable: 'unreachable',
  skills: 'unreachable',
}

/** When the vehicle was free to leave a visited stop (ms), as far as anyone reported. */
function leftAt(s: PlanStopRow, serviceSeconds: (s: PlanStopRow) => number): number | null {
  if (s.reported_at) {
    const at = new Date(s.reported_at).getTime()
    return s.reported === 'Arrived' ? at + serviceSeconds(s) * 1000 : at
  }
  const stamp = s.delivered_at ?? s.failed_at ?? s.planned_departure
  return stamp ? stamp.getTime() : null
}

/**
 * Re-orders a plan's open stops on the engine. The stops that are no longer open (delivered, failed,
 * returned, arrived at; cancelled) keep their order at the head of the plan, with their times. The
 * open ones are planned after them for the plan's vehicle (capacity aside: they are on it already),
 * from the last visited stop (else the plan's start), leaving no earlier than the vehicle was free to
 * leave it and, on a Dispatched plan, no earlier than `now`; within its shift and the stops' windows.
 * Independent of the open stops' current order, so re-optimising twice gives the same plan.
 */
export async function reoptimisePlan(deps: AppDeps, input: ReoptimiseInput, now: Date): Promise<Reoptimised> {
  const { plan, vehicle } = input
  const serviceMinutes = settingNumber(input.serviceMinutes, true) ?? DEFAULT_SERVICE_MINUTES
  const serviceSeconds = (s: PlanStopRow) =>
    (s.service_minutes === null ? serviceMinutes : Number(s.service_minutes)) * 60
  const fixed = input.stops.filter((s) => !open(s))
  const driven = fixed.filter(visited).flatMap((s) => {
    const point = pointOf(s.delivery_address)
    return point ? [{ row: s, point }] : []
  })
  const toDrive = input.stops.filter(open).sort((a, b) => a.code.localeCompare(b.code))
  const located = toDrive.flatMap((row) => {
    const point = pointOf(row.delivery_address)
    return point ? [{ row, point }] : []
  })
  const firstPickup = input.stops.map((s) => pointOf(s.pickup_address)).find((p) => p !== null)
  const fallback = firstPickup ?? driven[0]?.point ?? located[0]?.point ?? null
  const ends = routeEnds(plan.depot, vehicle, fallback)
  const keep = fixed.map((row) => ({
    row,
    times: { arrival: row.planned_arrival, departure: row.planned_departure },
  }))
  const noLocation = toDrive.filter((row) => !pointOf(row.delivery_address))
  if (!ends || located.length === 0) {
    return {
      stops: [...keep, ...toDrive.map((row) => ({ row, times: { arrival: null, departure: null } }))],
      kept: fixed.length,
      unrouted: noLocation.map((row) => ({ row, why: 'noLocation' as const })),
      distanceKm: 0,
    }
  }
  const free = driven.map((d) => leftAt(d.row, serviceSeconds)).filter((t): t is number => t !== null)
  if (plan.status === 'Dispatched') free.push(now.getTime())
  const from = driven[driven.length - 1]?.point ?? ends.start
  const built = routeProblem({
    date: plan.scheduled_date,
    timeZone: input.timeZone,
    vehicleId: vehicle?.id ?? plan.id,
    vehicle,
    ends: { start: from, end: ends.end },
    ...(free.length > 0 ? { notBefore: Math.max(...free) } : {}),
    stops: located,
    serviceMinutes,
    unlimited: true,
    extraPoints: [ends.start, ...driven.map((d) => d.point)],
  })
  const matrix = await travelMatrix(deps, built.points, settingNumber(input.speedKmh, false))
  const result = await solvePlan({ ...built.problem, matrix })
  const at = (seconds: number) => new Date(built.origin + Math.round(seconds * 1000))
  const byId = new Map(toDrive.map((row) => [row.id, row]))
  const [route] = result.routes
  const routed = (route?.visits ?? []).map((v) => ({
    row: byId.get(v.stopId) as PlanStopRow,
    times: { arrival: at(v.start), departure: at(v.departure) },
  }))
  const unrouted = [
    ...result.unassigned.map((u) => ({ row: byId.get(u.stopId) as PlanStopRow, why: WHY[u.reason] })),
    ...noLocation.map((row) => ({ row, why: 'noLocation' as const })),
  ]
  const metres = drivenMetres(matrix, built.indexOf, [ends.start, ...driven.map((d) => d.point)])
  const rest =
    route?.distance ?? (ends.end ? distance(matrix, built.indexOf(from), built.indexOf(ends.end)) : 0)
  return {
    stops: [
      ...keep,
      ...routed,
      ...unrouted.map((u) => ({ row: u.row, times: { arrival: null, departure: null } })),
    ],
    kept: fixed.length,
    unrouted,
    distanceKm: (metres + rest) / 1000,
  }
}

const distance = (m: PlanningMatrix, a: number, b: number) =>
  Number((m.distances ?? m.durations)[a * m.size + b])

/** The distance along points already driven, in order. */
function drivenMetres(m: PlanningMatrix, indexOf: (p: Point) => number, points: readonly Point[]) {
  let total = 0
  for (let i = 1; i < points.length; i++)
    total += distance(m, indexOf(points[i - 1] as Point), indexOf(points[i] as Point))
  return total
}
