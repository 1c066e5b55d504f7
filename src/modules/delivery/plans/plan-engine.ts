import type { AppDeps } from '../../../platform/deps.js'
import { type PlanningProblem, type PlanningResult, solveInThread } from '../planning-engine/index.js'
import { greatCircleMatrix, type MatrixProvider, osrmMatrix } from './route-matrix.js'
import type { Point } from './routing.js'

/** The shift of a vehicle without its own, when the request names none (hh:mm in the business's time zone). */
export const DEFAULT_SHIFT = { start: '08:00', end: '18:00' } as const

/** Minutes at a stop when neither the shipment, the request nor the business setting says. */
export const DEFAULT_SERVICE_MINUTES = 5

/** The road network when one is configured, else great-circle distance at the configured speed. */
export function matrixProvider({ config }: AppDeps, speedKmh: number | null = null): MatrixProvider {
  return config.routingOsrmUrl
    ? osrmMatrix(config.routingOsrmUrl, config.routingTimeoutMs)
    : greatCircleMatrix(speedKmh ?? config.planningSpeedKmh)
}

/** A setting's decimal text as a number (zero allowed or not); null when unset or unreadable. */
export const settingNumber = (text: string | null, zero: boolean) => {
  const value = text === null ? Number.NaN : Number(text)
  return Number.isFinite(value) && (zero ? value >= 0 : value > 0) ? value : null
}

/** Search effort: enough iterations to settle a plan, capped in time; the same input, the same plan. */
export const iterationsFor = (stops: number) => Math.min(20_000, 200 + stops * 40)

/** The travel matrix between `points`: the road network's, or great-circle at the business's speed. */
export const travelMatrix = (deps: AppDeps, points: readonly Point[], speedKmh: number | null) =>
  matrixProvider(deps, speedKmh).matrix(points)

/**
 * A day's plan across the fleet answers within 20 s for 1,000 stops: the search stops improving at
 * 85% of this and its last local search ends by 110%; before it comes the construction (3-4 s for
 * 1,000 stops across 60 vans on a loaded machine), after it writing the plans and their audit rows
 * (3-6 s on the embedded database, bench/scenarios-plan-day.ts).
 */
export const DAY_TIME_LIMIT_MS = 10_000

/**
 * One plan's autobatch answers while the dispatcher waits (the goal: 1,000 candidate shipments
 * under 1 s end to end): its search stops improving after this long, and its last local search
 * a tenth later. On 1,000 stops, about 0.3 s of construction comes before (17 s with the full
 * iteration count and no limit).
 */
const AUTOBATCH_TIME_LIMIT_MS = 250

/**
 * Up to 100 stops the iterations end autobatch's search well within a second, so no clock cuts it
 * (the same plan then gives the same route however loaded the machine); above, the clock does.
 */
export const autobatchTimeLimitMs = (stops: number) =>
  stops <= 100 ? DAY_TIME_LIMIT_MS : AUTOBATCH_TIME_LIMIT_MS

/**
 * Solves on the engine's thread with the seed and effort every planning operation uses. The same
 * input gives the same routes while the iterations, not the time limit, end the search.
 */
export const solvePlan = (
  problem: PlanningProblem,
  timeLimitMs = DAY_TIME_LIMIT_MS,
): Promise<PlanningResult> =>
  solveInThread(problem, {
    seed: 1,
    iterations: iterationsFor(problem.stops.length),
    timeLimitMs,
  })
