/**
 * The planning engine's contract: stops, vehicles and a travel matrix in; routes with times and the
 * stops left out (with why) out. Times are in seconds (or any one unit the matrix uses) from a common
 * origin; locations are indexes into the matrix.
 */

/** A time window [start, end]: service must begin within it (waiting for it to open is allowed). */
export type TimeWindow = readonly [start: number, end: number]

export interface PlanningStop {
  id: string
  /** Index of the stop's location in the matrix. */
  location: number
  /** Weight and volume the stop takes from the vehicle (0 when absent). */
  weight?: number
  volume?: number
  /** Time spent at the stop (0 when absent). */
  service?: number
  /** One or more windows, sorted, not overlapping; none means any time in the shift. */
  windows?: readonly TimeWindow[]
  /** Only this vehicle may serve it. */
  vehicleId?: string
  /** Every skill listed must be one of the vehicle's. */
  skills?: readonly string[]
}

/** A break: `duration` long, starting within [earliest, latest], taken between two stops. */
export interface PlanningBreak {
  earliest: number
  latest: number
  duration: number
}

export interface PlanningVehicle {
  id: string
  /** Matrix index where the vehicle starts. */
  start: number
  /** Matrix index where it ends; null for a route that ends at its last stop. */
  end: number | null
  /** The shift: leaves the start no earlier than shift[0], reaches the end no later than shift[1]. */
  shift?: TimeWindow
  maxWeight?: number
  maxVolume?: number
  maxStops?: number
  maxDistance?: number
  breaks?: readonly PlanningBreak[]
  skills?: readonly string[]
}

/** Square travel matrices over `size` locations, row-major (from * size + to). */
export interface PlanningMatrix {
  size: number
  /** Travel time; a non-finite entry means the pair is unreachable. */
  durations: ArrayLike<number>
  /** Travel distance; when absent, the durations stand in for it. */
  distances?: ArrayLike<number>
}

export interface PlanningRouteInput {
  vehicleId: string
  stopIds: readonly string[]
}

export interface PlanningProblem {
  stops: readonly PlanningStop[]
  vehicles: readonly PlanningVehicle[]
  matrix: PlanningMatrix
  /** What to minimise once the most stops are served: total distance (default) or total travel time. */
  objective?: 'distance' | 'duration'
  /** Use the fewest vehicles before minimising travel. */
  minimiseVehicles?: boolean
  /** Routes to start from (a plan as it stands); stops not in them are inserted at least cost. */
  initialRoutes?: readonly PlanningRouteInput[]
  /** Stops that stay on the vehicle and in the order `initialRoutes` give (dispatched, or pinned). */
  fixedStopIds?: readonly string[]
}

export interface PlanningOptions {
  /** Seed of the random generator: the same problem, seed and iterations give the same routes. */
  seed?: number
  /** Ruin-and-recreate iterations (0: construction and insertion only). */
  iterations?: number
  /** Wall-clock cap; when it cuts the iterations short the result depends on the machine's speed. */
  timeLimitMs?: number
}

export interface PlannedVisit {
  stopId: string
  arrival: number
  wait: number
  /** When service begins. */
  start: number
  departure: number
}

export interface PlannedBreak {
  start: number
  end: number
  /** Number of visits before the break. */
  afterVisits: number
}

export interface PlannedRoute {
  vehicleId: string
  visits: PlannedVisit[]
  breaks: PlannedBreak[]
  departure: number
  /** Arrival at the end location (or departure from the last stop for an open route). */
  arrival: number
  distance: number
  duration: number
  weight: number
  volume: number
}

export type UnassignedReason =
  | 'skills'
  | 'capacity'
  | 'window'
  | 'shift'
  | 'unreachable'
  | 'maxStops'
  | 'maxDistance'

export interface PlanningResult {
  routes: PlannedRoute[]
  unassigned: { stopId: string; reason: UnassignedReason }[]
  distance: number
  duration: number
  iterations: number
}
