import Flatbush from 'flatbush'

/** [longitude, latitude] in WGS84, as GeoJSON writes it. */
export type Position = readonly [number, number]

/**
 * Counts the edges visited by the exact tests (so tests can tell an indexed search from a scan of
 * every pair) and, with a limit, stops a search once it has spent that many.
 */
export interface GeometryWork {
  edgeTests: number
  limit?: number
}

/** Whether the work's limit is spent. */
export const exhausted = (work: GeometryWork | undefined) =>
  work !== undefined && work.edgeTests > (work.limit ?? Number.POSITIVE_INFINITY)

/** Counts one edge visit; true once the work's limit is spent (the search then stops). */
const spent = (work: GeometryWork | undefined) =>
  work !== undefined && ++work.edgeTests > (work.limit ?? Number.POSITIVE_INFINITY)

/**
 * Rings with fewer edges than this are scanned edge by edge: building a packed R-tree costs more
 * than it saves on a few dozen edges.
 */
const INDEX_FROM_EDGES = 32

export const orientation = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))

const between = (a: number, b: number, p: number) => Math.min(a, b) <= p && p <= Math.max(a, b)

/**
 * A closed ring (first position = last) held as flat coordinates, with its edges (edge i runs from
 * position i to i + 1) in a Flatbush index once the ring is large enough. Every question about the
 * ring (which edges meet a box, does a ray cross it, is a point on it) visits only the edges whose
 * bounding boxes can matter, instead of all of them.
 */
/** A ring's flat coordinates and, for a large ring, its edge index's bytes (Flatbush's `data`). */
export interface RingParts {
  readonly xs: Float64Array
  readonly ys: Float64Array
  readonly index?: ArrayBuffer
}

export class IndexedRing {
  readonly xs: Float64Array
  readonly ys: Float64Array
  readonly edges: number
  readonly minX: number
  readonly minY: number
  readonly maxX: number
  readonly maxY: number
  private readonly index: Flatbush | undefined

  /**
   * From positions, or from coordinates already flat (kept, not copied), with their edge index
   * when it was built elsewhere (parts(): another thread's).
   */
  constructor(ring: readonly Position[] | RingParts) {
    const flat = 'xs' in ring
    const n = flat ? ring.xs.length : ring.length
    this.xs = flat ? ring.xs : new Float64Array(n)
    this.ys = flat ? ring.ys : new Float64Array(n)
    let minX = Number.POSITIVE_INFINITY
    let minY = Number.POSITIVE_INFINITY
    let maxX = Number.NEGATIVE_INFINITY
    let maxY = Number.NEGATIVE_INFINITY
    for (let i = 0; i < n; i++) {
      if (!flat) {
        const [px, py] = ring[i] as Position
        this.xs[i] = px
        this.ys[i] = py
      }
      const x = this.xs[i] as number
      const y = this.ys[i] as number
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
    this.minX = minX
    this.minY = minY
    this.maxX = maxX
    this.maxY = maxY
    this.edges = Math.max(0, n - 1)
    if (flat && ring.index) {
      this.index = Flatbush.from(ring.index)
    } else if (this.edges >= INDEX_FROM_EDGES) {
      const index = new Flatbush(this.edges)
      for (let i = 0; i < this.edges; i++) {
        const x0 = this.xs[i] as number
        const x1 = this.xs[i + 1] as number
        const y0 = this.ys[i] as number
        const y1 = this.ys[i + 1] as number
        index.add(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1))
      }
      index.finish()
      this.index = index
    }
  }

  /** The ring as plain data (another thread builds it again with the constructor, index included). */
  parts(): RingParts {
    return { xs: this.xs, ys: this.ys, ...(this.index ? { index: this.index.data as ArrayBuffer } : {}) }
  }

  /** Positions, the closing one included. */
  get positions(): number {
    return this.xs.length
  }

  inBox(x: number, y: number): boolean {
    return this.minX <= x && x <= this.maxX && this.minY <= y && y <= this.maxY
  }

  /**
   * Calls `visit` with each edge whose bounding box meets the box (in no particular order) until
   * it returns true; says whether it did.
   */
  edgesIn(minX: number, minY: number, maxX: number, maxY: number, visit: (edge: number) => boolean): boolean {
    if (this.index) return this.index.collides(minX, minY, maxX, maxY, visit)
    const { xs, ys } = this
    for (let i = 0; i < this.edges; i++) {
      const x0 = xs[i] as number
      const x1 = xs[i + 1] as number
      const y0 = ys[i] as number
      const y1 = ys[i + 1] as number
      if (Math.max(x0, x1) < minX || Math.min(x0, x1) > maxX) continue
      if (Math.max(y0, y1) < minY || Math.min(y0, y1) > maxY) continue
      if (visit(i)) return true
    }
    return false
  }

  /**
   * Even-odd ray casting towards +longitude, over only the edges the ray can cross. The crossing
   * test is the classic one (points on an edge may fall either way), so the answer does not depend
   * on whether the ring is indexed.
   */
  contains(longitude: number, latitude: number, work?: GeometryWork): boolean {
    if (!this.inBox(longitude, latitude)) return false
    const { xs, ys } = this
    let inside = false
    this.edgesIn(longitude, latitude, this.maxX, latitude, (edge) => {
      if (spent(work)) return true
      const xj = xs[edge] as number
      const yj = ys[edge] as number
      const xi = xs[edge + 1] as number
      const yi = ys[edge + 1] as number
      if (yi > latitude !== yj > latitude && longitude < ((xj - xi) * (latitude - yi)) / (yj - yi) + xi) {
        inside = !inside
      }
      return false
    })
    return inside
  }

  /** Whether the point lies on an edge of the ring (exact arithmetic on the given coordinates). */
  onBoundary(x: number, y: number, work?: GeometryWork): boolean {
    const { xs, ys } = this
    return this.edgesIn(x, y, x, y, (edge) => {
      if (spent(work)) return false
      const ax = xs[edge] as number
      const ay = ys[edge] as number
      const bx = xs[edge + 1] as number
      const by = ys[edge + 1] as number
      return orientation(ax, ay, bx, by, x, y) === 0 && between(ax, bx, x) && between(ay, by, y)
    })
  }
}

/** Segments ab and cd touch or cross (sharing a point counts). */
export function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const o1 = orientation(ax, ay, bx, by, cx, cy)
  const o2 = orientation(ax, ay, bx, by, dx, dy)
  const o3 = orientation(cx, cy, dx, dy, ax, ay)
  const o4 = orientation(cx, cy, dx, dy, bx, by)
  if (o1 !== o2 && o3 !== o4 && o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0) return true
  return (
    (o1 === 0 && between(ax, bx, cx) && between(ay, by, cy)) ||
    (o2 === 0 && between(ax, bx, dx) && between(ay, by, dy)) ||
    (o3 === 0 && between(cx, dx, ax) && between(cy, dy, ay)) ||
    (o4 === 0 && between(cx, dx, bx) && between(cy, dy, by))
  )
}

/** The segments cross at a point interior to both (touching at an end or along a line does not count). */
export function properlyCross(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const o1 = orientation(ax, ay, bx, by, cx, cy)
  const o2 = orientation(ax, ay, bx, by, dx, dy)
  const o3 = orientation(cx, cy, dx, dy, ax, ay)
  const o4 = orientation(cx, cy, dx, dy, bx, by)
  return o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0 && o1 !== o2 && o3 !== o4
}

/**
 * The first pair of non-adjacent edges that touch or cross, in the order a scan of every pair
 * would find it (lowest first edge, then lowest second), found through the ring's edge index.
 */
export function firstSelfIntersection(ring: IndexedRing, work?: GeometryWork): [number, number] | undefined {
  const { xs, ys, edges } = ring
  for (let i = 0; i < edges && !exhausted(work); i++) {
    const ax = xs[i] as number
    const ay = ys[i] as number
    const bx = xs[i + 1] as number
    const by = ys[i + 1] as number
    let found = -1
    ring.edgesIn(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by), (j) => {
      // Adjacent edges share a position by construction; the closing edge is adjacent to the first.
      if (spent(work)) return true
      if (j <= i + 1 || (i === 0 && j === edges - 1) || (found >= 0 && j >= found)) return false
      const cx = xs[j] as number
      const cy = ys[j] as number
      const dx = xs[j + 1] as number
      const dy = ys[j + 1] as number
      if (segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) found = j
      return false
    })
    if (found >= 0) return [i, found]
  }
  return undefined
}

/**
 * Whether a hole lies inside its outer ring: the first position of the hole that is neither inside
 * nor on the outer ring (`outside`), else the first edge of the hole (then the lowest edge of the
 * outer ring) that properly crosses the outer ring (`crossing`). One pass over the hole's edges
 * through the outer ring's index: an edge of the hole that touches no edge of the outer ring ends
 * on the side it starts on, so a ray is cast only from the first position and from positions
 * after an edge that touches the boundary, not from each of up to 4,000.
 */
export function holeProblem(
  hole: IndexedRing,
  outer: IndexedRing,
  work?: GeometryWork,
): { outside: number } | { crossing: [number, number] } | undefined {
  const { xs, ys } = hole
  const within = (i: number) => {
    const x = xs[i] as number
    const y = ys[i] as number
    return outer.contains(x, y, work) || outer.onBoundary(x, y, work)
  }
  let crossing: [number, number] | undefined
  let inside = within(0)
  for (let i = 0; ; i++) {
    if (exhausted(work)) return undefined
    if (!inside) return { outside: i }
    if (i >= hole.edges) break
    const ax = xs[i] as number
    const ay = ys[i] as number
    const bx = xs[i + 1] as number
    const by = ys[i + 1] as number
    let touched = false
    let found = -1
    outer.edgesIn(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by), (j) => {
      if (spent(work)) return true
      const cx = outer.xs[j] as number
      const cy = outer.ys[j] as number
      const dx = outer.xs[j + 1] as number
      const dy = outer.ys[j + 1] as number
      if (!segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) return false
      touched = true
      if (crossing === undefined && (found < 0 || j < found) && properlyCross(ax, ay, bx, by, cx, cy, dx, dy))
        found = j
      return false
    })
    if (crossing === undefined && found >= 0) crossing = [i, found]
    if (touched) inside = within(i + 1)
  }
  return crossing ? { crossing } : undefined
}
