import { describe, expect, it } from 'vitest'
import { checkPlan } from './checker.js'
import { solve } from './engine.js'
import { Random } from './rng.js'
import type { PlanningProblem, PlanningResult, PlanningStop, PlanningVehicle } from './types.js'

/** Points on a plane; travel time = distance. Location 0 is the depot. */
function problemOf(
  points: readonly (readonly [number, number])[],
  stops: Omit<PlanningStop, 'location'>[],
  vehicles: PlanningVehicle[],
): PlanningProblem {
  const size = points.length
  const durations = new Float64Array(size * size)
  for (let i = 0; i < size; i++)
    for (let j = 0; j < size; j++) {
      const [ax, ay] = points[i] as readonly [number, number]
      const [bx, by] = points[j] as readonly [number, number]
      durations[i * size + j] = Math.hypot(ax - bx, ay - by)
    }
  return { stops: stops.map((s, i) => ({ ...s, location: i + 1 })), vehicles, matrix: { size, durations } }
}

const van = (id: string, extra: Partial<PlanningVehicle> = {}): PlanningVehicle => ({
  id,
  start: 0,
  end: 0,
  shift: [0, 1000],
  ...extra,
})

/**
 * Exact optimum by enumeration, written apart from the engine: every order of the stops cut into one
 * sequence per vehicle (vehicles identical), most served first, then least distance.
 */
function bruteForce(problem: PlanningProblem): { served: number; distance: number } {
  const { size, durations } = problem.matrix
  const t = (a: number, b: number) => durations[a * size + b] as number
  const vehicle = problem.vehicles[0] as PlanningVehicle
  const routeCost = (seq: number[]): number | null => {
    let time = vehicle.shift?.[0] ?? 0
    let at = vehicle.start
    let load = 0
    let length = 0
    for (const i of seq) {
      const s = problem.stops[i] as PlanningStop
      length += t(at, s.location)
      const arrive = time + t(at, s.location)
      const w = (s.windows ?? [[0, Infinity]]).find(([, b]) => arrive <= b)
      if (!w) return null
      time = Math.max(arrive, w[0]) + (s.service ?? 0)
      load += s.weight ?? 0
      at = s.location
    }
    length += t(at, vehicle.end ?? at)
    if (time + t(at, vehicle.end ?? at) > (vehicle.shift?.[1] ?? Infinity)) return null
    if (load > (vehicle.maxWeight ?? Infinity)) return null
    return length
  }
  let best = { served: -1, distance: Infinity }
  const n = problem.stops.length
  const vehicles = problem.vehicles.length
  // Every subset served, every permutation, every way to cut it into `vehicles` routes.
  const permute = (rest: number[], chosen: number[]) => {
    if (rest.length === 0) {
      const cut = (from: number, left: number, total: number) => {
        if (left === 1) {
          const c = routeCost(chosen.slice(from))
          if (c === null) return
          const served = chosen.length
          const distance = total + c
          if (served > best.served || (served === best.served && distance < best.distance - 1e-9))
            best = { served, distance }
          return
        }
        for (let end = from; end <= chosen.length; end++) {
          const c = routeCost(chosen.slice(from, end))
          if (c !== null) cut(end, left - 1, total + c)
        }
      }
      cut(0, vehicles, 0)
      return
    }
    rest.forEach((x, i) => {
      permute([...rest.slice(0, i), ...rest.slice(i + 1)], [...chosen, x])
    })
  }
  for (let mask = 0; mask < 1 << n; mask++) {
    const subset = Array.from({ length: n }, (_, i) => i).filter((i) => mask & (1 << i))
    if (subset.length < best.served) continue
    permute(subset, [])
  }
  return best
}

function randomProblem(seed: number, stops: number, vehicles: number): PlanningProblem {
  const rng = new Random(seed)
  const points = Array.from({ length: stops + 1 }, () => [rng.int(100), rng.int(100)] as const)
  return problemOf(
    points,
    Array.from({ length: stops }, (_, i) => {
      const open = rng.int(300)
      return {
        id: `s${i}`,
        weight: 1 + rng.int(5),
        service: 10,
        windows: [[open, open + 60 + rng.int(200)] as const],
      }
    }),
    Array.from({ length: vehicles }, (_, i) => van(`v${i}`, { maxWeight: 10, shift: [0, 600] })),
  )
}

const servedIds = (plan: PlanningResult) =>
  plan.routes.flatMap((r) => r.visits.map((v) => v.stopId)).sort((a, b) => a.localeCompare(b))

describe('the planning engine', () => {
  it('finds the exact optimum of tiny instances (enumeration over every split and order)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const problem = randomProblem(seed, 6, 2)
      const exact = bruteForce(problem)
      const plan = solve(problem, { seed: 1, iterations: 1500 })
      expect(checkPlan(problem, plan).violations).toEqual([])
      expect(servedIds(plan).length).toBe(exact.served)
      expect(plan.distance).toBeCloseTo(exact.distance, 6)
    }
  })

  it('gives the same routes for the same problem, seed and iterations', () => {
    const problem = randomProblem(11, 30, 4)
    const a = solve(problem, { seed: 42, iterations: 300 })
    const b = solve(problem, { seed: 42, iterations: 300 })
    expect(b).toEqual(a)
    expect(checkPlan(problem, a).violations).toEqual([])
  })

  it('keeps fixed stops on their vehicle and in their order, and moves the others freely', () => {
    const problem = randomProblem(5, 12, 3)
    const fixed = {
      ...problem,
      initialRoutes: [{ vehicleId: 'v1', stopIds: ['s7', 's2'] }],
      fixedStopIds: ['s7', 's2'],
    }
    const plan = solve(fixed, { seed: 3, iterations: 500 })
    expect(checkPlan(fixed, plan).violations).toEqual([])
    const order = plan.routes.find((r) => r.vehicleId === 'v1')?.visits.map((v) => v.stopId) ?? []
    expect(order.filter((id) => id === 's7' || id === 's2')).toEqual(['s7', 's2'])
  })

  it('inserts a late stop where it costs least (an open route) and leaves the rest of the route as it was', () => {
    const points = [
      [0, 0],
      [10, 0],
      [20, 0],
      [30, 0],
      [21, 1],
    ] as const
    const problem = problemOf(
      points,
      [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'late' }],
      [van('v1', { end: null })],
    )
    const plan = solve(
      { ...problem, initialRoutes: [{ vehicleId: 'v1', stopIds: ['a', 'b', 'c'] }] },
      { iterations: 0 },
    )
    expect(plan.routes[0]?.visits.map((v) => v.stopId)).toEqual(['a', 'b', 'late', 'c'])
  })

  it('honours several windows per stop, waiting for the next one to open', () => {
    const problem = problemOf(
      [
        [0, 0],
        [10, 0],
      ],
      [
        {
          id: 'a',
          service: 5,
          windows: [
            [0, 5],
            [50, 60],
          ],
        },
      ],
      [van('v1')],
    )
    const plan = solve(problem, { iterations: 10 })
    expect(plan.routes[0]?.visits[0]).toMatchObject({ stopId: 'a', start: 50, departure: 55 })
    expect(checkPlan(problem, plan).violations).toEqual([])
  })

  it('takes a break inside its window and reports it', () => {
    const problem = problemOf(
      [
        [0, 0],
        [10, 0],
        [20, 0],
        [30, 0],
      ],
      [
        { id: 'a', service: 30 },
        { id: 'b', service: 30 },
        { id: 'c', service: 30 },
      ],
      [van('v1', { breaks: [{ earliest: 40, latest: 80, duration: 30 }] })],
    )
    const plan = solve(problem, { iterations: 50 })
    expect(plan.unassigned).toEqual([])
    const brk = plan.routes[0]?.breaks[0]
    expect(brk?.start).toBeGreaterThanOrEqual(40)
    expect(brk?.start).toBeLessThanOrEqual(80)
    expect(checkPlan(problem, plan).violations).toEqual([])
  })

  it('says why a stop was left out', () => {
    const points = [
      [0, 0],
      [10, 0],
      [10, 0],
      [10, 0],
      [400, 0],
      [5, 0],
      [20, 0],
    ] as const
    const base = problemOf(
      points,
      [
        { id: 'heavy', weight: 50 },
        { id: 'early', windows: [[0, 5]] },
        { id: 'skilled', skills: ['fridge'] },
        { id: 'far' },
        { id: 'ok', weight: 10 },
        { id: 'unreachable' },
      ],
      [van('v1', { maxWeight: 10, shift: [0, 500] })],
    )
    const durations = Float64Array.from(base.matrix.durations)
    // No road to or from it.
    for (let i = 0; i < 6; i++) {
      durations[i * 7 + 6] = Number.POSITIVE_INFINITY
      durations[6 * 7 + i] = Number.POSITIVE_INFINITY
    }
    const problem = { ...base, matrix: { size: 7, durations } }
    const plan = solve(problem, { iterations: 20 })
    const reasons = Object.fromEntries(plan.unassigned.map((u) => [u.stopId, u.reason]))
    expect(reasons).toEqual({
      heavy: 'capacity',
      early: 'window',
      skilled: 'skills',
      far: 'shift',
      unreachable: 'unreachable',
    })
    expect(servedIds(plan)).toEqual(['ok'])
    expect(checkPlan(problem, plan).violations).toEqual([])
  })

  it('uses the fewest vehicles first when asked', () => {
    const problem = randomProblem(21, 10, 4)
    const loose = {
      ...problem,
      vehicles: problem.vehicles.map((v) => ({ ...v, maxWeight: 100, shift: [0, 5000] as const })),
      stops: problem.stops.map((s) => ({ ...s, windows: [] })),
    }
    const plan = solve({ ...loose, minimiseVehicles: true }, { seed: 1, iterations: 200 })
    expect(plan.routes).toHaveLength(1)
  })
})

describe('the feasibility checker', () => {
  const problem = problemOf(
    [
      [0, 0],
      [10, 0],
      [20, 0],
    ],
    [
      { id: 'a', weight: 6, windows: [[0, 15]] },
      { id: 'b', weight: 6 },
    ],
    [van('v1', { maxWeight: 10 })],
  )
  const route = (visits: { stopId: string; start: number }[], distance: number) => ({
    routes: [
      {
        vehicleId: 'v1',
        visits: visits.map((v) => ({ ...v, arrival: v.start, wait: 0, departure: v.start })),
        breaks: [],
        departure: 0,
        arrival: 40,
        distance,
        duration: 40,
        weight: 0,
        volume: 0,
      },
    ],
    unassigned: [],
    distance,
    duration: 40,
    iterations: 0,
  })

  it('accepts a good plan and recomputes its distance', () => {
    const ok = { ...problem, vehicles: [van('v1', { maxWeight: 20 })] }
    const report = checkPlan(
      ok,
      route(
        [
          { stopId: 'a', start: 10 },
          { stopId: 'b', start: 20 },
        ],
        40,
      ),
    )
    expect(report).toEqual({ violations: [], distance: 40, served: 2, vehiclesUsed: 1 })
  })

  it('finds a window missed, an overload, a visit too early to be reached and a wrong distance', () => {
    const report = checkPlan(
      problem,
      route(
        [
          { stopId: 'b', start: 5 },
          { stopId: 'a', start: 30 },
        ],
        50,
      ),
    )
    expect(report.violations).toEqual([
      'stop b begins before the vehicle can be there',
      'stop a served at 30, outside its windows',
      'v1 over its weight',
      'v1 reports 50, the matrix says 40',
    ])
  })

  it('finds a stop visited twice and one neither served nor left out', () => {
    const ok = { ...problem, vehicles: [van('v1', { maxWeight: 20 })] }
    const report = checkPlan(
      ok,
      route(
        [
          { stopId: 'a', start: 10 },
          { stopId: 'a', start: 10 },
        ],
        20,
      ),
    )
    expect(report.violations).toContain('stop a visited twice')
    expect(report.violations).toContain('stop b neither served nor left out')
  })
})
