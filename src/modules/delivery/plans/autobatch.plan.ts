import type { AppDeps } from '../../../platform/deps.js'
import type {
  PlanningMatrix,
  PlanningResult,
  PlanningVehicle,
  UnassignedReason,
} from '../planning-engine/index.js'
import type { Candidate, LeftOut, Unrouted } from './autobatch.messages.js'
import type { StopTimes } from './autobatch.repository.js'
import { shortlist } from './autobatch.shortlist.js'
import { pointOf, type StopRow, type VehicleRow } from './plan-day.problem.js'
import {
  autobatchTimeLimitMs,
  DEFAULT_SERVICE_MINUTES,
  settingNumber,
  solvePlan,
  travelMatrix,
} from './plan-engine.js'
import { type RouteProblem, routeEnds, routeProblem } from './plan-route.problem.js'
import type { LockedPlan } from './plans.repository.js'

/** What autobatch plans from (read in a transaction; compared field for field before writing). */
export interface AutobatchInput {
  plan: LockedPlan
  vehicle: VehicleRow | null
  /** The plan's shipments and the unassigned Pending shipments of its day, in code order. */
  rows: (StopRow & { delivery_plan_id: string | null; stop_sequence: number | null })[]
  /** The unassigned located shipments whose point lies outside the plan's zones. */
  outsideZones: string[]
  timeZone: string
  serviceMinutes: string | null
  speedKmh: string | null
}

export interface AutobatchPlan {
  /** The plan's stops in their new order, with planned times where the route reaches them. */
  stops: { id: string; times?: StopTimes }[]
  /** km, null when there was nowhere to start from. */
  distanceKm: number | null
  /** New shipments put on the plan. */
  assigned: number
  left: LeftOut[]
  /** Shipments on the plan that stay on it without a place in the route. */
  unrouted: { shipment: Candidate; why: Unrouted }[]
}

const candidate = (row: StopRow): Candidate => ({
  id: row.id,
  code: row.code,
  weight: Number(row.weight ?? 0),
  volume: Number(row.volume ?? 0),
  point: pointOf(row.delivery_address),
})

/**
 * The engine's reason as autobatch words it. Only weight, volume, windows, the shift and the road
 * network limit one vehicle here: the engine's other reasons (stops, distance, skills) cannot arise.
 */
const WHY: Record<UnassignedReason, 'overCapacity' | Exclude<Unrouted, 'noLocation'>> = {
  capacity: 'overCapacity',
  maxStops: 'overCapacity',
  window: 'outsideWindows',
  shift: 'outsideShift',
  maxDistance: 'outsideShift',
  unreachable: 'unreachable',
  skills: 'unreachable',
}

/**
 * Plans one plan's route on the engine: its own shipments all stay (in the best order the vehicle
 * allows), and the eligible new ones (located, inside the plan's zones) are taken as the vehicle's
 * weight, volume, shift and their windows allow, the most shipments first, then the shortest route.
 * When serving the most new shipments would drop one of the plan's own, the plan's own are ordered
 * first and kept in that order while the new ones are inserted around them.
 */
export async function autobatchPlan(deps: AppDeps, input: AutobatchInput): Promise<AutobatchPlan> {
  const { plan, vehicle } = input
  const onPlan = input.rows.filter((r) => r.delivery_plan_id === plan.id)
  const unassigned = input.rows.filter((r) => r.delivery_plan_id === null)
  const outside = new Set(input.outsideZones)
  const left: LeftOut[] = []
  const eligible: StopRow[] = []
  for (const row of unassigned) {
    const shipment = candidate(row)
    if (!shipment.point) left.push({ shipment, reason: 'noLocation' })
    else if (outside.has(row.id))
      left.push({ shipment: { ...shipment, point: shipment.point }, reason: 'noZone' })
    else eligible.push(row)
  }
  const located = (rows: readonly StopRow[]) =>
    rows.flatMap((row) => {
      const point = pointOf(row.delivery_address)
      return point ? [{ row, point }] : []
    })
  const firstPickup = input.rows.map((r) => pointOf(r.pickup_address)).find((p) => p !== null)
  const fallback = firstPickup ?? located(onPlan)[0]?.point ?? located(unassigned)[0]?.point ?? null
  const ends = routeEnds(plan.depot, vehicle, fallback)
  const noLocation = onPlan
    .filter((r) => !pointOf(r.delivery_address))
    .map((r) => ({ shipment: candidate(r), why: 'noLocation' as const }))
  if (!ends) {
    return {
      stops: onPlan.map((r) => ({ id: r.id })),
      distanceKm: null,
      assigned: 0,
      left,
      unrouted: noLocation,
    }
  }
  const own = located(onPlan)
  const route = {
    date: plan.scheduled_date,
    timeZone: input.timeZone,
    vehicleId: vehicle?.id ?? plan.id,
    vehicle,
    ends,
    stops: [...own, ...located(eligible)],
    serviceMinutes: settingNumber(input.serviceMinutes, true) ?? DEFAULT_SERVICE_MINUTES,
  }
  if (route.stops.length === 0)
    return {
      stops: onPlan.map((r) => ({ id: r.id })),
      distanceKm: 0,
      assigned: 0,
      left,
      unrouted: noLocation,
    }
  const ownIds = new Set(onPlan.map((r) => r.id))
  const speedKmh = settingNumber(input.speedKmh, false)
  const all = routeProblem(route)
  const { kept, cut } = shortlist(all.problem, all.points, ownIds, speedKmh ?? deps.config.planningSpeedKmh)
  // Only the shortlisted stops' points go into the matrix.
  if (cut.length > 0) {
    const keptIds = new Set(kept.map((s) => s.id))
    route.stops = route.stops.filter((s) => keptIds.has(s.row.id))
  }
  const built = cut.length > 0 ? routeProblem(route) : all
  const unlimited = routeProblem({ ...route, unlimited: true }).problem.vehicles[0] as PlanningVehicle
  const matrix = await travelMatrix(deps, built.points, speedKmh)
  // The plan's own stops in their present order: the search starts from that route.
  const ownOrder = input.rows
    .filter((r) => r.delivery_plan_id === plan.id && pointOf(r.delivery_address))
    .sort(
      (a, b) => (a.stop_sequence ?? Number.MAX_SAFE_INTEGER) - (b.stop_sequence ?? Number.MAX_SAFE_INTEGER),
    )
    .map((r) => r.id)
  const { result, dropped } = await keepingOwn(built, matrix, ownOrder, unlimited)
  const [planned] = result.routes
  const at = (seconds: number) => new Date(built.origin + Math.round(seconds * 1000))
  const routed: AutobatchPlan['stops'] = (planned?.visits ?? []).map((v) => ({
    id: v.stopId,
    times: { arrival: at(v.start), departure: at(v.departure) },
  }))
  const byId = new Map(input.rows.map((r) => [r.id, candidate(r)]))
  const shipmentOf = (id: string) => byId.get(id) as Candidate
  const unrouted: AutobatchPlan['unrouted'] = [
    ...dropped.map((d) => {
      const why = WHY[d.reason]
      return { shipment: shipmentOf(d.stopId), why: why === 'overCapacity' ? 'outsideShift' : why }
    }),
    ...noLocation,
  ]
  const load = {
    weight: planned?.weight ?? loadOf(own, 'weight'),
    volume: planned?.volume ?? loadOf(own, 'volume'),
  }
  for (const u of [...result.unassigned, ...cut]) {
    if (ownIds.has(u.stopId)) continue
    const shipment = shipmentOf(u.stopId)
    const reason = WHY[u.reason]
    left.push(reason === 'overCapacity' ? { shipment, reason, ...load } : { shipment, reason })
  }
  return {
    stops: [...routed, ...unrouted.map((u) => ({ id: u.shipment.id }))],
    distanceKm: (planned?.distance ?? 0) / 1000,
    assigned: routed.filter((s) => !ownIds.has(s.id)).length,
    left,
    unrouted,
  }
}

const loadOf = (stops: readonly { row: StopRow }[], what: 'weight' | 'volume') =>
  stops.reduce((sum, s) => sum + Number(s.row[what] ?? 0), 0)

/**
 * Solves so that every stop already on the plan that can be routed at all stays routed: first with
 * everything free, starting from the plan's present route (so the search keeps it unless it finds
 * better, and a large autobatch run again needs one search, not three); when that drops one of the plan's own, the plan's own alone (capacity aside, they
 * are on it already) give their order and the ones no route can hold (`dropped`), then the new ones
 * are inserted around that fixed order.
 */
async function keepingOwn(
  built: RouteProblem,
  matrix: PlanningMatrix,
  ownOrder: readonly string[],
  unlimited: PlanningVehicle,
): Promise<{ result: PlanningResult; dropped: PlanningResult['unassigned'] }> {
  const own = new Set(ownOrder)
  const base = { ...built.problem, matrix }
  const limitMs = autobatchTimeLimitMs(base.stops.length)
  const vehicleId = base.vehicles[0]?.id
  const free = await solvePlan(
    ownOrder.length > 0 && vehicleId ? { ...base, initialRoutes: [{ vehicleId, stopIds: ownOrder }] } : base,
    limitMs,
  )
  if (!free.unassigned.some((u) => own.has(u.stopId))) return { result: free, dropped: [] }
  const alone = await solvePlan(
    {
      ...base,
      stops: base.stops.filter((s) => own.has(s.id)),
      vehicles: [unlimited],
    },
    limitMs,
  )
  const order = alone.routes[0]?.visits.map((v) => v.stopId) ?? []
  const dropped = new Set(alone.unassigned.map((u) => u.stopId))
  const result = await solvePlan(
    {
      ...base,
      stops: base.stops.filter((s) => !dropped.has(s.id)),
      initialRoutes: [{ vehicleId: unlimited.id, stopIds: order }],
      fixedStopIds: order,
    },
    limitMs,
  )
  return { result, dropped: alone.unassigned }
}
