import { localInstant } from '../local-time.js'
import type { PlanningProblem, PlanningVehicle, TimeWindow } from '../planning-engine/index.js'
import { storedWindows } from '../shipments/index.js'
import { minutesOf, storedBreaks, storedLocation } from '../vehicles/index.js'
import type { dayShipments, dayVehicles } from './plan-day.repository.js'
import type { Point } from './routing.js'

type StopRow = Awaited<ReturnType<typeof dayShipments>>[number] & { vehicle_id?: string | null }
type VehicleRow = Awaited<ReturnType<typeof dayVehicles>>[number]

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
  const origin = localInstant(input.date, 0, input.timeZone)
  const clock = (hhmm: string) => (localInstant(input.date, minutesOf(hhmm), input.timeZone) - origin) / 1000
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
      breaks: storedBreaks(v.breaks).map((b) => ({
        earliest: clock(b.earliest),
        latest: clock(b.latest),
        duration: b.durationMinutes * 60,
      })),
      ...(v.max_weight == null ? {} : { maxWeight: Number(v.max_weight) }),
      ...(v.max_volume == null ? {} : { maxVolume: Number(v.max_volume) }),
    }
  })
  const stops = input.stops.map(({ row, point }) => {
    const windows = storedWindows(row.delivery_windows).map(
      (w): TimeWindow => [(Date.parse(w.start) - origin) / 1000, (Date.parse(w.end) - origin) / 1000],
    )
    const minutes = row.service_minutes === null ? input.serviceMinutes : Number(row.service_minutes)
    return {
      id: row.id,
      location: indexOf(point),
      weight: Number(row.weight ?? 0),
      volume: Number(row.volume ?? 0),
      service: minutes * 60,
      ...(windows.length > 0 ? { windows } : {}),
    }
  })
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
