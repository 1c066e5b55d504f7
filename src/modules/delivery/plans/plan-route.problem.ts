import type { PlanningProblem, PlanningVehicle, TimeWindow } from '../planning-engine/index.js'
import { storedLocation } from '../vehicles/index.js'
import {
  capacityOf,
  dayClock,
  engineBreaks,
  engineStop,
  pointIndex,
  type StopRow,
  type VehicleRow,
} from './plan-day.problem.js'
import { DEFAULT_SHIFT } from './plan-engine.js'
import type { Point } from './routing.js'

/** Where one plan's route starts and ends. */
export interface RouteEnds {
  start: Point
  /** Null: the route ends at its last stop (nothing is driven after it). */
  end: Point | null
}

/**
 * Where a plan's route runs from and to: it starts at the plan's depot, else its vehicle's start
 * location, else `fallback`; it ends at the vehicle's end location, else its start location (the
 * vehicle goes home), else at its last stop (a plan without a located vehicle, as autobatch always
 * measured it). Null when there is nowhere to start from.
 */
export function routeEnds(
  depot: unknown,
  vehicle: VehicleRow | null,
  fallback: Point | null,
): RouteEnds | null {
  const own = vehicle ? storedLocation(vehicle.start_location) : null
  const start = storedLocation(depot) ?? own ?? fallback
  if (!start) return null
  return { start, end: (vehicle && storedLocation(vehicle.end_location)) ?? own }
}

/** One plan's vehicle and stops, settled, for the engine. */
export interface RouteInput {
  /** The plan's day (yyyy-mm-dd) and the business's time zone. */
  date: string
  timeZone: string
  /** The engine's id for the vehicle (the plan's vehicle's, else any id standing for the plan). */
  vehicleId: string
  vehicle: VehicleRow | null
  ends: RouteEnds
  /** The route leaves its start no earlier than this instant (ms), when later than its shift's start. */
  notBefore?: number
  stops: readonly { row: StopRow; point: Point }[]
  /** Minutes at a stop whose shipment does not say. */
  serviceMinutes: number
  /** Ignore the vehicle's weight and volume (to find the order of stops already on the plan). */
  unlimited?: boolean
  /** Other points the matrix must hold (the stops already driven, to measure them), after the rest. */
  extraPoints?: readonly Point[]
}

export interface RouteProblem {
  problem: PlanningProblem
  points: Point[]
  /** The instant (ms) engine time 0 stands for: midnight of the day in the business's time zone. */
  origin: number
  indexOf: (p: Point) => number
}

/**
 * One vehicle's problem: its capacity, its shift (else 08:00-18:00) and breaks on the plan's day,
 * from the route's start (no earlier than `notBefore`) to its end; the stops' windows and service
 * times as plan-day reads them. Breaks that could only have started before the route leaves are
 * left out (taken, or missed, already).
 */
export function routeProblem(input: RouteInput): RouteProblem {
  const { origin, clock } = dayClock(input.date, input.timeZone)
  const { points, indexOf } = pointIndex()
  const v = input.vehicle
  const own = v !== null && v.shift_start !== null && v.shift_end !== null
  const shift: [number, number] = [
    clock(own ? (v.shift_start as string) : DEFAULT_SHIFT.start),
    clock(own ? (v.shift_end as string) : DEFAULT_SHIFT.end),
  ]
  if (input.notBefore !== undefined) shift[0] = Math.max(shift[0], (input.notBefore - origin) / 1000)
  const vehicle: PlanningVehicle = {
    id: input.vehicleId,
    start: indexOf(input.ends.start),
    end: input.ends.end ? indexOf(input.ends.end) : null,
    shift: shift as TimeWindow,
    breaks: v ? engineBreaks(v, clock).filter((b) => b.latest >= shift[0]) : [],
    ...(v && !input.unlimited ? capacityOf(v) : {}),
  }
  const stops = input.stops.map(({ row, point }) =>
    engineStop(row, indexOf(point), origin, input.serviceMinutes),
  )
  for (const p of input.extraPoints ?? []) indexOf(p)
  const problem: PlanningProblem = { stops, vehicles: [vehicle], matrix: { size: 0, durations: [] } }
  return { problem, points, origin, indexOf }
}
