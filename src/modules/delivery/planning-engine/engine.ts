import { Random } from './rng.js'
import type {
  PlannedBreak,
  PlannedRoute,
  PlannedVisit,
  PlanningBreak,
  PlanningOptions,
  PlanningProblem,
  PlanningResult,
  UnassignedReason,
} from './types.js'

/**
 * The planning engine: cheapest insertion to start, then ruin and recreate (SISR: adjacent string
 * removal, greedy insertion with blinks; Christiaens & Vanden Berghe 2020) under simulated annealing,
 * and a final local search (2-opt within a route, 2-opt* between routes). Time windows are checked in O(1) per insertion
 * from each route's earliest service starts (forward) and latest feasible starts (backward), as in
 * Vidal et al.'s segment concatenation. Vehicles with breaks fall back to simulating the route.
 * The acceptance is lexicographic: more stops served, then (optionally) fewer vehicles, then travel.
 */

const EPS = 1e-7
const BLINK = 0.01
const AVG_REMOVED = 10
const MAX_STRING = 10

interface Route {
  v: number
  stops: number[]
  /** Earliest service start per position: 0 = leaving the start, k+1 = arrival at the end. */
  est: number[]
  /** Latest feasible service start per position. */
  lst: number[]
  weight: number
  volume: number
  dist: number
  cost: number
  feasible: boolean
}

interface Insertion {
  route: number
  pos: number
  delta: number
}

class Search {
  readonly n: number
  readonly nv: number
  readonly size: number
  readonly dur: Float64Array
  readonly dst: Float64Array
  readonly cst: Float64Array
  readonly loc: Int32Array
  readonly svc: Float64Array
  readonly wins: Float64Array[]
  readonly wgt: Float64Array
  readonly vol: Float64Array
  readonly compat: Uint8Array
  readonly fixed: Uint8Array
  readonly vStart: Int32Array
  readonly vEnd: Int32Array
  readonly shiftS: Float64Array
  readonly shiftE: Float64Array
  readonly capW: Float64Array
  readonly capV: Float64Array
  readonly maxStops: Float64Array
  readonly maxDist: Float64Array
  readonly breaks: PlanningBreak[][]
  readonly routes: Route[]
  readonly routeOf: Int32Array
  unassigned: number[] = []
  readonly rng: Random
  readonly vehicleCost: number

  constructor(
    readonly problem: PlanningProblem,
    seed: number,
  ) {
    const { stops, vehicles, matrix } = problem
    this.n = stops.length
    this.nv = vehicles.length
    this.size = matrix.size
    const m = matrix.size * matrix.size
    // Copied natively (no callback per entry: a 1,000-point matrix has a million of them).
    this.dur = Float64Array.from(matrix.durations).subarray(0, m)
    this.dst = matrix.distances ? Float64Array.from(matrix.distances).subarray(0, m) : this.dur
    this.cst = problem.objective === 'duration' ? this.dur : this.dst
    this.loc = Int32Array.from(stops, (s) => s.location)
    this.svc = Float64Array.from(stops, (s) => s.service ?? 0)
    this.wins = stops.map((s) =>
      s.windows && s.windows.length > 0
        ? Float64Array.from(s.windows.flat())
        : Float64Array.of(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY),
    )
    this.wgt = Float64Array.from(stops, (s) => s.weight ?? 0)
    this.vol = Float64Array.from(stops, (s) => s.volume ?? 0)
    this.compat = new Uint8Array(this.n * this.nv)
    stops.forEach((s, i) => {
      vehicles.forEach((v, j) => {
        const skills = v.skills ?? []
        const ok = (!s.vehicleId || s.vehicleId === v.id) && (s.skills ?? []).every((k) => skills.includes(k))
        this.compat[i * this.nv + j] = ok ? 1 : 0
      })
    })
    this.vStart = Int32Array.from(vehicles, (v) => v.start)
    this.vEnd = Int32Array.from(vehicles, (v) => v.end ?? -1)
    this.shiftS = Float64Array.from(vehicles, (v) => v.shift?.[0] ?? 0)
    this.shiftE = Float64Array.from(vehicles, (v) => v.shift?.[1] ?? Number.POSITIVE_INFINITY)
    this.capW = Float64Array.from(vehicles, (v) => v.maxWeight ?? Number.POSITIVE_INFINITY)
    this.capV = Float64Array.from(vehicles, (v) => v.maxVolume ?? Number.POSITIVE_INFINITY)
    this.maxStops = Float64Array.from(vehicles, (v) => v.maxStops ?? Number.POSITIVE_INFINITY)
    this.maxDist = Float64Array.from(vehicles, (v) => v.maxDistance ?? Number.POSITIVE_INFINITY)
    this.breaks = vehicles.map((v) => [...(v.breaks ?? [])].sort((a, b) => a.earliest - b.earliest))
    this.routes = vehicles.map((_, v) => this.emptyRoute(v))
    this.routeOf = new Int32Array(this.n).fill(-1)
    this.fixed = new Uint8Array(this.n)
    this.rng = new Random(seed)
    let maxCost = 0
    for (let i = 0; i < m; i++) {
      const c = this.cst[i] as number
      if (Number.isFinite(c) && c > maxCost) maxCost = c
    }
    // Opening a vehicle costs more than any route can save, when vehicles come first.
    this.vehicleCost = problem.minimiseVehicles ? 2 * maxCost * (this.n + 1) + 1 : 0
  }

  private emptyRoute(v: number): Route {
    const r: Route = {
      v,
      stops: [],
      est: [],
      lst: [],
      weight: 0,
      volume: 0,
      dist: 0,
      cost: 0,
      feasible: true,
    }
    this.refresh(r)
    return r
  }

  /** Matrix entry; a missing end location (open route) costs nothing. */
  d(m: Float64Array, a: number, b: number): number {
    return a < 0 || b < 0 ? 0 : (m[a * this.size + b] as number)
  }

  /** Earliest service start at stop c when arriving at `a`; Infinity when every window has closed. */
  startIn(c: number, a: number): number {
    const w = this.wins[c] as Float64Array
    for (let i = 0; i < w.length; i += 2) {
      if (a <= (w[i + 1] as number) + EPS) return Math.max(a, w[i] as number)
    }
    return Number.POSITIVE_INFINITY
  }

  /** Latest service start at stop c no later than `t`; -Infinity when none. */
  latestIn(c: number, t: number): number {
    const w = this.wins[c] as Float64Array
    for (let i = w.length - 2; i >= 0; i -= 2) {
      if ((w[i] as number) <= t + EPS) return Math.min(t, w[i + 1] as number)
    }
    return Number.NEGATIVE_INFINITY
  }

  locAt(r: Route, p: number): number {
    const k = r.stops.length
    if (p === 0) return this.vStart[r.v] as number
    if (p === k + 1) return this.vEnd[r.v] as number
    return this.loc[r.stops[p - 1] as number] as number
  }

  svcAt(r: Route, p: number): number {
    return p === 0 || p === r.stops.length + 1 ? 0 : (this.svc[r.stops[p - 1] as number] as number)
  }

  refresh(r: Route): void {
    const k = r.stops.length
    let weight = 0
    let volume = 0
    let dist = 0
    let cost = 0
    for (let p = 0; p <= k; p++) {
      const a = this.locAt(r, p)
      const b = this.locAt(r, p + 1)
      dist += this.d(this.dst, a, b)
      cost += this.d(this.cst, a, b)
    }
    for (const c of r.stops) {
      weight += this.wgt[c] as number
      volume += this.vol[c] as number
    }
    r.weight = weight
    r.volume = volume
    r.dist = dist
    r.cost = cost + (k > 0 ? this.vehicleCost : 0)
    if ((this.breaks[r.v] as PlanningBreak[]).length > 0) {
      r.feasible = k === 0 || this.simulate(r.v, r.stops) !== null
      return
    }
    const est = r.est
    const lst = r.lst
    est.length = k + 2
    lst.length = k + 2
    est[0] = this.shiftS[r.v] as number
    for (let p = 1; p <= k + 1; p++) {
      const a =
        (est[p - 1] as number) +
        this.svcAt(r, p - 1) +
        this.d(this.dur, this.locAt(r, p - 1), this.locAt(r, p))
      est[p] = p === k + 1 ? a : this.startIn(r.stops[p - 1] as number, a)
    }
    lst[k + 1] = this.shiftE[r.v] as number
    for (let p = k; p >= 0; p--) {
      const t =
        (lst[p + 1] as number) - this.svcAt(r, p) - this.d(this.dur, this.locAt(r, p), this.locAt(r, p + 1))
      lst[p] = p === 0 ? t : this.latestIn(r.stops[p - 1] as number, t)
    }
    r.feasible =
      k === 0 ||
      (Number.isFinite(est[k + 1] as number) && (est[k + 1] as number) <= (lst[k + 1] as number) + EPS)
  }

  /**
   * Times of a route of vehicle v with breaks: each break is taken as soon as the next stop would
   * end after the break may start, during the wait at the next stop when it fits there, else before
   * leaving. Null when infeasible.
   */
  simulate(
    v: number,
    stops: readonly number[],
  ): { visits: PlannedVisit[]; breaks: PlannedBreak[]; end: number } | null {
    const brks = this.breaks[v] as PlanningBreak[]
    const shiftS = this.shiftS[v] as number
    let t = shiftS
    let pos = this.vStart[v] as number
    let bi = 0
    const visits: PlannedVisit[] = []
    const taken: PlannedBreak[] = []
    for (let idx = 0; idx <= stops.length; idx++) {
      const isEnd = idx === stops.length
      const c = isEnd ? -1 : (stops[idx] as number)
      const next = isEnd
        ? (this.vEnd[v] as number) < 0
          ? pos
          : (this.vEnd[v] as number)
        : (this.loc[c] as number)
      const travel = this.d(this.dur, pos, next)
      if (!Number.isFinite(travel)) return null
      let a = t + travel
      let s = isEnd ? Math.max(a, shiftS) : this.startIn(c, a)
      if (!Number.isFinite(s)) return null
      while (bi < brks.length) {
        const b = brks[bi] as PlanningBreak
        const due = isEnd ? a > b.earliest + EPS : s + (this.svc[c] as number) > b.earliest + EPS
        if (!due) break
        const inWait = Math.max(a, b.earliest)
        if (!isEnd && inWait <= b.latest + EPS && inWait + b.duration <= s + EPS) {
          taken.push({ start: inWait, end: inWait + b.duration, afterVisits: idx })
        } else {
          const bs = Math.max(t, b.earliest)
          if (bs > b.latest + EPS) return null
          taken.push({ start: bs, end: bs + b.duration, afterVisits: idx })
          t = bs + b.duration
          a = t + travel
          s = isEnd ? Math.max(a, shiftS) : this.startIn(c, a)
          if (!Number.isFinite(s)) return null
        }
        bi++
      }
      if (isEnd) {
        if (s > (this.shiftE[v] as number) + EPS) return null
        return { visits, breaks: taken, end: a }
      }
      const departure = s + (this.svc[c] as number)
      visits.push({ stopId: '', arrival: a, wait: s - a, start: s, departure })
      t = departure
      pos = next
    }
    return null
  }

  /** Cost of inserting c into route r before position p+1 (after position p), or Infinity. */
  insertionDelta(r: Route, c: number, p: number): number {
    const k = r.stops.length
    const prev = this.locAt(r, p)
    const next = this.locAt(r, p + 1)
    const lc = this.loc[c] as number
    let delta = this.d(this.cst, prev, lc) + this.d(this.cst, lc, next) - this.d(this.cst, prev, next)
    if (!Number.isFinite(delta)) return Number.POSITIVE_INFINITY
    if (k === 0) delta += this.vehicleCost
    return delta
  }

  timeFeasible(r: Route, c: number, p: number): boolean {
    const v = r.v
    if ((this.breaks[v] as PlanningBreak[]).length > 0) {
      const stops = r.stops.slice()
      stops.splice(p, 0, c)
      return this.simulate(v, stops) !== null
    }
    if (!r.feasible) return false
    const prev = this.locAt(r, p)
    const next = this.locAt(r, p + 1)
    const lc = this.loc[c] as number
    const a = (r.est[p] as number) + this.svcAt(r, p) + this.d(this.dur, prev, lc)
    const s = this.startIn(c, a)
    if (!Number.isFinite(s)) return false
    const a2 = s + (this.svc[c] as number) + this.d(this.dur, lc, next)
    if (!Number.isFinite(a2)) return false
    const k = r.stops.length
    const s2 = p + 1 === k + 1 ? a2 : this.startIn(r.stops[p] as number, a2)
    return s2 <= (r.lst[p + 1] as number) + EPS
  }

  distanceFeasible(r: Route, c: number, p: number): boolean {
    const max = this.maxDist[r.v] as number
    if (max === Number.POSITIVE_INFINITY) return true
    const prev = this.locAt(r, p)
    const next = this.locAt(r, p + 1)
    const lc = this.loc[c] as number
    const dd = this.d(this.dst, prev, lc) + this.d(this.dst, lc, next) - this.d(this.dst, prev, next)
    return r.dist + dd <= max + EPS
  }

  loadFits(r: Route, c: number): boolean {
    return (
      r.weight + (this.wgt[c] as number) <= (this.capW[r.v] as number) + EPS &&
      r.volume + (this.vol[c] as number) <= (this.capV[r.v] as number) + EPS &&
      r.stops.length + 1 <= (this.maxStops[r.v] as number)
    )
  }

  bestInsertion(c: number, blink: boolean): Insertion | null {
    let best: Insertion | null = null
    let bestDelta = Number.POSITIVE_INFINITY
    let emptyTried = false
    for (let ri = 0; ri < this.routes.length; ri++) {
      const r = this.routes[ri] as Route
      if (this.compat[c * this.nv + r.v] === 0 || !this.loadFits(r, c)) continue
      const k = r.stops.length
      // Identical empty vehicles need one look.
      if (k === 0 && this.sameAsTriedEmpty(ri, emptyTried)) continue
      if (k === 0) emptyTried = true
      for (let p = 0; p <= k; p++) {
        if (blink && this.rng.next() < BLINK) continue
        const delta = this.insertionDelta(r, c, p)
        if (delta >= bestDelta - EPS) continue
        if (!this.distanceFeasible(r, c, p) || !this.timeFeasible(r, c, p)) continue
        bestDelta = delta
        best = { route: ri, pos: p, delta }
      }
    }
    return best
  }

  /** Empty vehicle ri is the same as an earlier empty one already looked at (same places, shift, limits). */
  sameAsTriedEmpty(ri: number, emptyTried: boolean): boolean {
    if (!emptyTried) return false
    const twins = this.twins()
    const first = twins[ri] as number
    if (first === ri) return false
    for (let j = 0; j < ri; j++) {
      if (twins[j] === first && (this.routes[j] as Route).stops.length === 0) return true
    }
    return false
  }

  private twinCache: Int32Array | null = null
  twins(): Int32Array {
    if (this.twinCache) return this.twinCache
    const { vehicles } = this.problem
    const key = (j: number) => {
      const v = vehicles[j]
      return JSON.stringify([
        v?.start,
        v?.end,
        v?.shift,
        v?.maxWeight,
        v?.maxVolume,
        v?.maxStops,
        v?.maxDistance,
        v?.breaks,
        v?.skills,
        v?.id && this.problem.stops.some((s) => s.vehicleId === v.id) ? v.id : null,
      ])
    }
    const seen = new Map<string, number>()
    this.twinCache = Int32Array.from(vehicles, (_, j) => {
      const k = key(j)
      const first = seen.get(k)
      if (first !== undefined) return first
      seen.set(k, j)
      return j
    })
    return this.twinCache
  }

  insertAt(c: number, ins: Insertion): void {
    const r = this.routes[ins.route] as Route
    r.stops.splice(ins.pos, 0, c)
    this.routeOf[c] = ins.route
    this.refresh(r)
  }

  removeStop(c: number): void {
    const ri = this.routeOf[c] as number
    const r = this.routes[ri] as Route
    r.stops.splice(r.stops.indexOf(c), 1)
    this.routeOf[c] = -1
  }

  totalCost(): number {
    let total = 0
    for (const r of this.routes) total += r.cost
    return total
  }

  usedVehicles(): number {
    let used = 0
    for (const r of this.routes) if (r.stops.length > 0) used++
    return used
  }
}

export { Search }

/** Lexicographic score: unserved stops, then cost (which carries the vehicles when they come first). */
interface Score {
  unassigned: number
  cost: number
}

const better = (a: Score, b: Score) =>
  a.unassigned < b.unassigned || (a.unassigned === b.unassigned && a.cost < b.cost - EPS)

function placeInitial(search: Search): number[] {
  const { problem } = search
  const index = new Map(problem.stops.map((s, i) => [s.id, i]))
  const vIndex = new Map(problem.vehicles.map((v, i) => [v.id, i]))
  for (const id of problem.fixedStopIds ?? []) {
    const i = index.get(id)
    if (i !== undefined) search.fixed[i] = 1
  }
  const placed = new Uint8Array(search.n)
  const free: number[] = []
  for (const route of problem.initialRoutes ?? []) {
    const v = vIndex.get(route.vehicleId)
    if (v === undefined) continue
    const r = search.routes[v] as Route
    for (const id of route.stopIds) {
      const c = index.get(id)
      if (c === undefined || placed[c]) continue
      placed[c] = 1
      r.stops.push(c)
      search.routeOf[c] = v
    }
    search.refresh(r)
    // A route that no longer fits (a window or a capacity changed) keeps its fixed stops; the rest go back.
    const overloaded =
      r.weight > (search.capW[v] as number) + EPS || r.volume > (search.capV[v] as number) + EPS
    if (!r.feasible || overloaded || r.dist > (search.maxDist[v] as number) + EPS) {
      for (const c of r.stops.slice()) {
        if (!search.fixed[c]) {
          search.removeStop(c)
          free.push(c)
        }
      }
      search.refresh(r)
    }
  }
  // Fixed stops not on any initial route cannot be kept anywhere: they are inserted like the rest.
  for (let c = 0; c < search.n; c++) if (!placed[c]) free.push(c)
  return free
}

/**
 * Insert the stops, hardest first (narrow windows, big loads), each at its cheapest feasible place.
 * Among stops alike in both, the nearest to the first vehicle's start come first: when the fleet
 * can serve only some of many (one van, a thousand candidates), the route then grows outwards from
 * its start and holds many close stops, instead of a few scattered ones that use the shift up.
 */
function construct(search: Search, stops: number[]): void {
  const start = search.vStart[0] ?? -1
  const fromStart = (c: number) => search.d(search.cst, start, search.loc[c] as number)
  const order = stops.slice().sort((a, b) => {
    const wa = search.wins[a] as Float64Array
    const wb = search.wins[b] as Float64Array
    const spanA = (wa[wa.length - 1] as number) - (wa[0] as number)
    const spanB = (wb[wb.length - 1] as number) - (wb[0] as number)
    return (
      spanA - spanB ||
      (search.wgt[b] as number) - (search.wgt[a] as number) ||
      fromStart(a) - fromStart(b) ||
      a - b
    )
  })
  for (const c of order) {
    const ins = search.bestInsertion(c, false)
    if (ins) search.insertAt(c, ins)
    else search.unassigned.push(c)
  }
}

export function solve(problem: PlanningProblem, options: PlanningOptions = {}): PlanningResult {
  const search = new Search(problem, options.seed ?? 1)
  const free = placeInitial(search)
  construct(search, free)
  const iterations = options.iterations ?? 0
  const ran = iterations > 0 && search.n > 0 ? improve(search, iterations, options.timeLimitMs) : 0
  return result(search, ran)
}

/** Ruin and recreate under simulated annealing; keeps the best solution seen. Returns iterations run. */
function improve(search: Search, iterations: number, timeLimitMs: number | undefined): number {
  const started = performance.now()
  const n = search.n
  const adjacency = neighbours(search)
  const fromDepot = Float64Array.from({ length: n }, (_, c) =>
    search.d(search.cst, search.vStart[0] as number, search.loc[c] as number),
  )
  let current: Score = { unassigned: search.unassigned.length, cost: search.totalCost() }
  let best = current
  let bestRoutes = search.routes.map((r) => r.stops.slice())
  let bestUnassigned = search.unassigned.slice()
  const served = search.routes.reduce((s, r) => s + r.stops.length, 0)
  const edges = Math.max(1, served + search.usedVehicles())
  const avgEdge = (current.cost - search.vehicleCost * search.usedVehicles()) / edges
  const t0 = Math.max(avgEdge * 0.1, EPS)
  const tf = Math.max(avgEdge * 0.001, EPS)
  let it = 0
  for (; it < iterations; it++) {
    let progress = it / iterations
    if (timeLimitMs !== undefined && (it & 15) === 0) {
      const elapsed = performance.now() - started
      if (elapsed >= timeLimitMs * 0.85) break
      progress = Math.max(progress, elapsed / (timeLimitMs * 0.85))
    }
    const temperature = t0 * (tf / t0) ** progress
    const saved = new Map<number, number[]>()
    const savedUnassigned = search.unassigned.slice()
    const touch = (ri: number) => {
      if (!saved.has(ri)) saved.set(ri, (search.routes[ri] as Route).stops.slice())
    }
    const removed = ruin(search, adjacency, touch)
    if (removed.length === 0 && search.unassigned.length === 0) continue
    const pending = [...removed, ...search.unassigned]
    search.unassigned = []
    recreate(search, pending, fromDepot, touch)
    const next: Score = { unassigned: search.unassigned.length, cost: search.totalCost() }
    const accept =
      next.unassigned < current.unassigned ||
      (next.unassigned === current.unassigned &&
        next.cost < current.cost - temperature * Math.log(search.rng.next()))
    if (accept) {
      current = next
      if (better(current, best)) {
        best = current
        bestRoutes = search.routes.map((r) => r.stops.slice())
        bestUnassigned = search.unassigned.slice()
      }
    } else {
      for (const [ri, stops] of saved) {
        const r = search.routes[ri] as Route
        r.stops = stops
        for (const c of stops) search.routeOf[c] = ri
        search.refresh(r)
      }
      for (const c of savedUnassigned) search.routeOf[c] = -1
      search.unassigned = savedUnassigned
    }
  }
  restore(search, bestRoutes, bestUnassigned)
  localSearch(search, timeLimitMs === undefined ? Number.POSITIVE_INFINITY : started + timeLimitMs * 1.1)
  return it
}

function restore(search: Search, routes: number[][], unassigned: number[]): void {
  search.routeOf.fill(-1)
  routes.forEach((stops, ri) => {
    const r = search.routes[ri] as Route
    r.stops = stops.slice()
    for (const c of stops) search.routeOf[c] = ri
    search.refresh(r)
  })
  search.unassigned = unassigned.slice()
}

/** Each stop's other stops, nearest first (by the objective's measure, both ways). */
function neighbours(search: Search): Int32Array[] {
  const n = search.n
  const limit = Math.min(n - 1, 100)
  const result: Int32Array[] = []
  const key = new Float64Array(n)
  const keys = new Float64Array(n)
  const byKey = (a: number, b: number) => (key[a] as number) - (key[b] as number) || a - b
  for (let c = 0; c < n; c++) {
    const lc = search.loc[c] as number
    for (let o = 0; o < n; o++) {
      const lo = search.loc[o] as number
      const d = search.d(search.cst, lc, lo) + search.d(search.cst, lo, lc)
      key[o] = o === c ? Number.POSITIVE_INFINITY : Number.isFinite(d) ? d : Number.MAX_VALUE
    }
    // The first `limit` of all stops ordered by key then index, without sorting all of them with a
    // comparator (a million calls on 1,000 stops): the limit-th smallest key from a native sort,
    // then the stops below it and, in index order, enough of those equal to it.
    keys.set(key)
    keys.sort()
    const threshold = keys[limit - 1] as number
    const nearest: number[] = []
    for (let o = 0; o < n; o++) if ((key[o] as number) < threshold) nearest.push(o)
    for (let o = 0; o < n && nearest.length < limit; o++) if (key[o] === threshold) nearest.push(o)
    result.push(Int32Array.from(nearest.sort(byKey)))
  }
  return result
}

/** SISR's adjacent string removal: strings of stops near a random seed stop, one per route. */
function ruin(search: Search, adjacency: Int32Array[], touch: (ri: number) => void): number[] {
  const { rng } = search
  let nonEmpty = 0
  let served = 0
  for (const r of search.routes) {
    if (r.stops.length > 0) nonEmpty++
    served += r.stops.length
  }
  // A random movable stop: a few random draws, then the first one from a random point.
  let seed = -1
  for (let tries = 0; tries < 32 && seed < 0; tries++) {
    const c = rng.int(search.n)
    if ((search.routeOf[c] as number) >= 0 && !search.fixed[c]) seed = c
  }
  for (let i = 0, from = rng.int(search.n); i < search.n && seed < 0; i++) {
    const c = (from + i) % search.n
    if ((search.routeOf[c] as number) >= 0 && !search.fixed[c]) seed = c
  }
  if (seed < 0) return []
  const avgRoute = served / Math.max(1, nonEmpty)
  const lsMax = Math.min(MAX_STRING, avgRoute)
  const ksMax = (4 * AVG_REMOVED) / (1 + lsMax) - 1
  const ks = Math.floor(rng.next() * ksMax) + 1
  const ruined = new Set<number>()
  const removed: number[] = []
  const near = adjacency[seed] as Int32Array
  for (let ni = -1; ni < near.length; ni++) {
    const c = ni < 0 ? seed : (near[ni] as number)
    if (ruined.size >= ks) break
    const ri = search.routeOf[c] as number
    if (ri < 0 || ruined.has(ri) || search.fixed[c]) continue
    const r = search.routes[ri] as Route
    touch(ri)
    ruined.add(ri)
    const k = r.stops.length
    const ltMax = Math.min(k, lsMax)
    const lt = Math.floor(rng.next() * ltMax) + 1
    const at = r.stops.indexOf(c)
    let take: number[]
    if (lt < k && rng.next() < 0.5) {
      // Split string: a string of lt + m stops around c, of which m in a row stay.
      let m = 1
      while (lt + m < k && rng.next() < 0.5) m++
      const len = lt + m
      const start = Math.max(0, Math.min(at - rng.int(len), k - len))
      const keepFrom = start + rng.int(len - m + 1)
      take = []
      for (let p = start; p < start + len; p++)
        if (p < keepFrom || p >= keepFrom + m) take.push(r.stops[p] as number)
    } else {
      const start = Math.max(0, Math.min(at - rng.int(lt), k - lt))
      take = r.stops.slice(start, start + lt)
    }
    for (const s of take) {
      if (search.fixed[s]) continue
      search.removeStop(s)
      removed.push(s)
    }
    search.refresh(r)
  }
  return removed
}

/** Greedy insertion with blinks, in one of SISR's orders. */
function recreate(
  search: Search,
  pending: number[],
  fromDepot: Float64Array,
  touch: (ri: number) => void,
): void {
  const { rng } = search
  const pick = rng.int(13)
  const span = (c: number) => {
    const w = search.wins[c] as Float64Array
    return (w[w.length - 1] as number) - (w[0] as number)
  }
  // Shuffle first so ties (and the random order) differ from one iteration to the next.
  for (let i = pending.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    const t = pending[i] as number
    pending[i] = pending[j] as number
    pending[j] = t
  }
  if (pick < 4) {
    // random
  } else if (pick < 8) pending.sort((a, b) => (search.wgt[b] as number) - (search.wgt[a] as number))
  else if (pick < 10) pending.sort((a, b) => (fromDepot[b] as number) - (fromDepot[a] as number))
  else if (pick < 11) pending.sort((a, b) => (fromDepot[a] as number) - (fromDepot[b] as number))
  else pending.sort((a, b) => span(a) - span(b))
  for (const c of pending) {
    const ins = search.bestInsertion(c, true)
    if (ins) {
      touch(ins.route)
      search.insertAt(c, ins)
    } else search.unassigned.push(c)
  }
}

/**
 * First-improvement descent on the best solution: 2-opt (reverse a segment of a route) and 2-opt*
 * (exchange the tails of two routes). A move is screened by its edge costs, then checked by
 * rebuilding the routes it touches, so it is simple and exact; it runs once at the end.
 */
function localSearch(search: Search, deadline: number): void {
  const fits = (ri: number, stops: number[]) => {
    const r = search.routes[ri] as Route
    const trial: Route = { ...r, stops, est: [], lst: [] }
    search.refresh(trial)
    const ok =
      trial.feasible &&
      trial.weight <= (search.capW[r.v] as number) + EPS &&
      trial.volume <= (search.capV[r.v] as number) + EPS &&
      stops.length <= (search.maxStops[r.v] as number) &&
      trial.dist <= (search.maxDist[r.v] as number) + EPS &&
      stops.every((c) => search.compat[c * search.nv + r.v] === 1)
    return ok ? trial.cost : null
  }
  const orderKept = (before: number[], after: number[]) => {
    const a = before.filter((c) => search.fixed[c])
    const b = after.filter((c) => search.fixed[c])
    return a.length === b.length && a.every((c, i) => b[i] === c)
  }
  const costBetween = (x: number, y: number) => search.d(search.cst, x, y)
  const edge = (ri: number, p: number, q: number) => {
    const r = search.routes[ri] as Route
    return costBetween(search.locAt(r, p), search.locAt(r, q))
  }
  let improved = true
  let rounds = 0
  while (improved && rounds++ < 20 && performance.now() < deadline) {
    improved = false
    const nr = search.routes.length
    for (let a = 0; a < nr; a++) {
      for (let b = a; b < nr; b++) {
        const ra = search.routes[a] as Route
        const rb = search.routes[b] as Route
        if (ra.stops.length === 0 && rb.stops.length === 0) continue
        if (a === b) {
          // 2-opt (reverse a segment) within the route.
          for (let i = 0; i < ra.stops.length - 1; i++) {
            for (let j = i + 1; j < ra.stops.length; j++) {
              const s = ra.stops
              // Edge costs first (exact for a symmetric matrix); only a promising move is rebuilt.
              const before = edge(a, i, i + 1) + edge(a, j + 1, j + 2)
              const after =
                costBetween(search.locAt(ra, i), search.locAt(ra, j + 1)) +
                costBetween(search.locAt(ra, i + 1), search.locAt(ra, j + 2))
              if (after >= before - EPS) continue
              const trial = [...s.slice(0, i), ...s.slice(i, j + 1).reverse(), ...s.slice(j + 1)]
              if (!orderKept(s, trial)) continue
              const cost = fits(a, trial)
              if (cost !== null && cost < ra.cost - EPS) {
                ra.stops = trial
                search.refresh(ra)
                improved = true
              }
            }
          }
          continue
        }
        // 2-opt*: a keeps its head up to i and takes b's tail from j, and the other way round.
        for (let i = 0; i <= ra.stops.length; i++) {
          for (let j = 0; j <= rb.stops.length; j++) {
            const sa = ra.stops
            const sb = rb.stops
            // a's edge out of position i and b's out of position j are exchanged: exact, and cheap.
            const headA = search.locAt(ra, i)
            const headB = search.locAt(rb, j)
            const tailA =
              i === sa.length ? (search.vEnd[rb.v] as number) : (search.loc[sa[i] as number] as number)
            const tailB =
              j === sb.length ? (search.vEnd[ra.v] as number) : (search.loc[sb[j] as number] as number)
            if (
              search.vEnd[ra.v] === search.vEnd[rb.v] &&
              costBetween(headA, tailB) + costBetween(headB, tailA) >=
                edge(a, i, i + 1) + edge(b, j, j + 1) - EPS
            )
              continue
            const na = [...sa.slice(0, i), ...sb.slice(j)]
            const nb = [...sb.slice(0, j), ...sa.slice(i)]
            if (!orderKept(sa, na) || !orderKept(sb, nb)) continue
            if (sa.slice(i).some((c) => search.fixed[c]) || sb.slice(j).some((c) => search.fixed[c])) continue
            const ca = fits(a, na)
            if (ca === null) continue
            const cb = fits(b, nb)
            if (cb !== null && ca + cb < ra.cost + rb.cost - EPS) {
              ra.stops = na
              rb.stops = nb
              for (const c of na) search.routeOf[c] = a
              for (const c of nb) search.routeOf[c] = b
              search.refresh(ra)
              search.refresh(rb)
              improved = true
            }
          }
        }
      }
    }
  }
}

function reasonFor(search: Search, c: number): UnassignedReason {
  const vs = search.problem.vehicles.map((_, v) => v).filter((v) => search.compat[c * search.nv + v] === 1)
  if (vs.length === 0) return 'skills'
  const lc = search.loc[c] as number
  const reachable = vs.filter((v) => {
    const there = search.d(search.dur, search.vStart[v] as number, lc)
    const back = search.d(search.dur, lc, search.vEnd[v] as number)
    return Number.isFinite(there) && Number.isFinite(back)
  })
  if (reachable.length === 0) return 'unreachable'
  const fitsLoad = reachable.filter(
    (v) =>
      (search.wgt[c] as number) <= (search.capW[v] as number) + EPS &&
      (search.vol[c] as number) <= (search.capV[v] as number) + EPS,
  )
  if (fitsLoad.length === 0) return 'capacity'
  if (fitsLoad.every((v) => (search.maxStops[v] as number) < 1)) return 'maxStops'
  const alone = (v: number) => {
    const r: Route = {
      v,
      stops: [c],
      est: [],
      lst: [],
      weight: 0,
      volume: 0,
      dist: 0,
      cost: 0,
      feasible: true,
    }
    search.refresh(r)
    return r
  }
  const singles = fitsLoad.map(alone)
  if (singles.every((r) => r.dist > (search.maxDist[r.v] as number) + EPS)) return 'maxDistance'
  if (!singles.some((r) => r.feasible)) {
    // Its window cannot be met even by a vehicle doing nothing else: the window, or the shift around it.
    const reachWindow = fitsLoad.some((v) => {
      const a = (search.shiftS[v] as number) + search.d(search.dur, search.vStart[v] as number, lc)
      return Number.isFinite(search.startIn(c, a))
    })
    return reachWindow ? 'shift' : 'window'
  }
  // It fits alone: the vehicles are full, by load, by count or by time.
  for (const r of search.routes) {
    if (search.compat[c * search.nv + r.v] === 0) continue
    for (let p = 0; p <= r.stops.length; p++) {
      if (search.timeFeasible(r, c, p) && search.distanceFeasible(r, c, p)) {
        return r.stops.length + 1 > (search.maxStops[r.v] as number) ? 'maxStops' : 'capacity'
      }
    }
  }
  return 'shift'
}

function result(search: Search, iterations: number): PlanningResult {
  const { problem } = search
  const routes: PlannedRoute[] = []
  for (const r of search.routes) {
    if (r.stops.length === 0) continue
    const v = r.v
    let visits: PlannedVisit[]
    let breaks: PlannedBreak[] = []
    let departure = search.shiftS[v] as number
    let arrival: number
    if ((search.breaks[v] as PlanningBreak[]).length > 0) {
      const sim = search.simulate(v, r.stops)
      if (sim) {
        visits = sim.visits.map((visit, i) => ({
          ...visit,
          stopId: problem.stops[r.stops[i] as number]?.id ?? '',
        }))
        breaks = sim.breaks
        arrival = sim.end
      } else {
        ;({ visits, arrival } = timesOf(search, r))
      }
    } else {
      ;({ visits, arrival } = timesOf(search, r))
    }
    // Leave as late as the first stop allows, so the vehicle does not wait at its first stop needlessly.
    const first = visits[0]
    if (first && (search.breaks[v] as PlanningBreak[]).length === 0) {
      const travel = search.d(
        search.dur,
        search.vStart[v] as number,
        search.loc[r.stops[0] as number] as number,
      )
      departure = Math.max(departure, Math.min(first.start - travel, r.lst[0] ?? departure))
      first.arrival = departure + travel
      first.wait = first.start - first.arrival
    }
    routes.push({
      vehicleId: problem.vehicles[v]?.id ?? '',
      visits,
      breaks,
      departure,
      arrival,
      distance: r.dist,
      duration: arrival - departure,
      weight: r.weight,
      volume: r.volume,
    })
  }
  const unassigned = search.unassigned
    .slice()
    .sort((a, b) => a - b)
    .map((c) => ({ stopId: problem.stops[c]?.id ?? '', reason: reasonFor(search, c) }))
  return {
    routes,
    unassigned,
    distance: routes.reduce((s, r) => s + r.distance, 0),
    duration: routes.reduce((s, r) => s + r.duration, 0),
    iterations,
  }
}

function timesOf(search: Search, r: Route): { visits: PlannedVisit[]; arrival: number } {
  const visits: PlannedVisit[] = []
  let t = search.shiftS[r.v] as number
  let pos = search.vStart[r.v] as number
  for (const c of r.stops) {
    const lc = search.loc[c] as number
    const a = t + search.d(search.dur, pos, lc)
    const s = search.startIn(c, a)
    const start = Number.isFinite(s) ? s : a
    const departure = start + (search.svc[c] as number)
    visits.push({ stopId: search.problem.stops[c]?.id ?? '', arrival: a, wait: start - a, start, departure })
    t = departure
    pos = lc
  }
  const arrival = t + search.d(search.dur, pos, search.vEnd[r.v] as number)
  return { visits, arrival }
}
