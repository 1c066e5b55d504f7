import { localInstant } from '../local-time.js'
import type { PlanningProblem, PlanningStop, PlanningVehicle, TimeWindow } from '../planning-engine/index.js'
import { storedWindows } from '../shipments/index.js'
import { minutesOf, storedBreaks, storedLocation } from '../vehicles/index.js'
import type { dayShipments, dayVehicles } from './plan-day.repository.js'
import type { Point } from './routing.js'

export type StopRow = Awaited<ReturnType<typeof dayShipments>>[number] & { vehicle_id?: string | null }
export type VehicleRow = Awaited<ReturnType<typeof dayVehicles>>[number]

export const pointOf = (address: unknown): Point | null => storedLocation(address)

/** Everything a day's problem is built from, already read and settled. */
export interface DayInput {
  date: string
  timeZone: string
  vehicles: readonly VehicleRow[]
  /** The stops already on the vehicles' open plans, in order, then the day's new shipments: all located. */
  stops: readonly { row: StopRow; point: Point }[]
  keptIds: readonly string[]
  /** Where a vehicle without its own locations starts and ends. */
  depot: Point
  /** The request's shift (hh:mm), for vehicles without their own. */
  shift: { start: string; end: string }
  /** Minutes at a stop whose shipment does not say. */
  serviceMinutes: number
}

export interface DayProblem {
  problem: PlanningProblem
  points: Point[]
  /** The instant (ms) engine time 0 stands for: midnight of the day in the business's time zone. */
  origin: number
  /** Where each vehicle starts (for a new plan's depot). */
  startOf: Map<string, Point>
}

/**
 * The planning engine's problem for a business's day. Engine times are seconds from the business's
 * midnight; every hh:mm (shifts, breaks) is read on the day in its time zone, and each delivery
 * window (instants) relative to that midnight. Each vehicle starts at its own start location, else
 * at `depot`, and ends at its end location, else where it starts; its shift and breaks are its own,
 * else the request's shift and none.
 */
export function dayProblem(input: DayInput): DayProblem {
  const { origin, clock } = dayClock(input.date, input.timeZone)
  const { points, indexOf } = pointIndex()
  const startOf = new Map<string, Point>()
  const vehicles = input.vehicles.map((v): PlanningVehicle => {
    const start = storedLocation(v.start_location) ?? input.depot
    const end = storedLocation(v.end_location) ?? start
    startOf.set(v.id, start)
    const own = v.shift_start !== null && v.shift_end !== null
    const shift: TimeWindow = [
      clock(own ? (v.shift_start as string) : input.shift.start),
      clock(own ? (v.shift_end as string) : input.shift.end),
    ]
    return {
      id: v.id,
      start: indexOf(start),
      end: indexOf(end),
      shift,
      breaks: engineBreaks(v, clock),
      ...capacityOf(v),
    }
  })
  const stops = input.stops.map(({ row, point }) =>
    engineStop(row, indexOf(point), origin, input.serviceMinutes),
  )
  const problem: PlanningProblem = {
    stops,
    vehicles,
    matrix: { size: 0, durations: [] },
    initialRoutes: input.vehicles.map((v) => ({
      vehicleId: v.id,
      stopIds: input.stops.filter(({ row }) => row.vehicle_id === v.id).map(({ row }) => row.id),
    })),
    fixedStopIds: input.keptIds,
  }
  return { problem, points, origin, startOf }
}

/**
 * Engine time on a business's day: 0 is its midnight in its time zone (`origin`, ms); `clock` reads an
 * hh:mm of that day as engine seconds.
 */
export function dayClock(date: string, timeZone: string) {
  const origin = localInstant(date, 0, timeZone)
  const clock = (hhmm: string) => (localInstant(date, minutesOf(hhmm), timeZone) - origin) / 1000
  return { origin, clock }
}

/** The distinct points of a problem, in the order first met: a point's index is its row in the matrix. */
export function pointIndex() {
  const points: Point[] = []
  const indexes = new Map<string, number>()
  const indexOf = (p: Point) => {
    const key = `${p.latitude},${p.longitude}`
    let index = indexes.get(key)
    if (index === undefined) {
      index = points.push(p) - 1
      indexes.set(key, index)
    }
    return index
  }
  return { points, indexOf }
}

/** A vehicle's breaks on the day, in engine seconds. */
export const engineBreaks = (v: Pick<VehicleRow, 'breaks'>, clock: (hhmm: string) => number) =>
  storedBreaks(v.breaks).map((b) => ({
    earliest: clock(b.earliest),
    latest: clock(b.latest),
    duration: b.durationMinutes * 60,
  }))

/** A vehicle's weight and volume limits, where it has them. */
export const capacityOf = (v: Pick<VehicleRow, 'max_weight' | 'max_volume'>) => ({
  ...(v.max_weight == null ? {} : { maxWeight: Number(v.max_weight) }),
  ...(v.max_volume == null ? {} : { maxVolume: Number(v.max_volume) }),
})

/** A shipment as the engine's stop: its load, service time (its own, else `serviceMinutes`) and windows. */
export function engineStop(
  row: StopRow,
  location: number,
  origin: number,
  serviceMinutes: number,
): PlanningStop {
  const windows = storedWindows(row.delivery_windows).map(
    (w): TimeWindow => [(Date.parse(w.start) - origin) / 1000, (Date.parse(w.end) - origin) / 1000],
  )
  const minutes = row.service_minutes === null ? serviceMinutes : Number(row.service_minutes)
  return {
    id: row.id,
    location,
    weight: Number(row.weight ?? 0),
    volume: Number(row.volume ?? 0),
    service: minutes * 60,
    ...(windows.length > 0 ? { windows } : {}),
  }
}
