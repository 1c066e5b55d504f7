import { EventEmitter } from 'node:events'
import pg from 'pg'

/**
 * The organisation schema of the statement being sent. `withSchemaAffinity` sets it only while it
 * hands the statement over: from Kysely's `executeQuery` to `LanePool.connect` is one synchronous
 * call chain (async functions run up to their first await), so the pool reads it in the same tick.
 * Not an AsyncLocalStorage: on Node 20 one of those adds a hook to every promise of the process,
 * which cost about 7 µs per request. Should the chain ever gain an await, statements lose only
 * their preferred lane, never their correctness (lane-pool.test.ts checks the chain through Kysely).
 */
let sendingFor: string | undefined

/** The schema whose statement is being handed over now, if any (read by db/clusters.ts). */
export const currentAffinity = (): string | undefined => sendingFor

/** Runs `send` (which must start its query synchronously) preferring `schema`'s home connection. */
export function withSchemaAffinity<T>(schema: string, send: () => T): T {
  const outer = sendingFor
  sendingFor = schema
  try {
    return send()
  } finally {
    sendingFor = outer
  }
}

/**
 * How many of the pool's connections serve one schema's statements. Each backend loads the
 * catalogue entries of every schema it plans a statement for (5-20 ms for a customer read in a
 * schema new to it), and loses them all whenever another session's DDL, in any database of the
 * cluster, overflows PostgreSQL's shared invalidation queue (registering one organisation does).
 * With two homes a backend reloads about 2/size of the schemas after that, not all of them, while
 * the less busy of two lanes keeps the load even. `size` or more: any lane (the former policy).
 */
export const HOME_LANES = 2
let homeLanes = HOME_LANES

/** Sets how many lanes serve each schema in pools built from now on (bench/schemas.ts weighs it). */
export function setHomeLanes(count: number): void {
  homeLanes = Math.max(1, Math.floor(count))
}

/**
 * When every home of a schema is busy and the least busy one already has this many statements
 * waiting, a statement takes a lane that is free now: long statements on its homes (an export)
 * delay a schema's next statements, never stall them while other connections idle.
 */
export const SPILL_AFTER_WAITING = 2

/** What the application uses of a pool: `pg.Pool` on the embedded database, `LanePool` on PostgreSQL. */
export interface DatabasePool {
  query: pg.Pool['query']
  connect: pg.Pool['connect']
  end: pg.Pool['end']
  on(event: 'connect', listener: (client: pg.PoolClient) => void): unknown
  on(event: 'error', listener: (error: Error, client: pg.PoolClient) => void): unknown
  off(event: 'connect', listener: (client: pg.PoolClient) => void): unknown
  readonly options: pg.Pool['options']
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
}

/**
 * One statement on a connection from `connecting`, released afterwards: unlike pg.Pool#query, a
 * statement the server refused (a SQLSTATE outside the connection and shutdown classes) keeps the
 * connection, and what it prepared; any other error drops it.
 */
export async function queryKeepingConnection(
  connecting: Promise<pg.PoolClient>,
  args: unknown[],
): Promise<unknown> {
  const client = await connecting
  let broken: Error | undefined
  try {
    return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (!(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57|XX)/.test(code)))
      broken = error as Error
    throw error
  } finally {
    client.release(broken)
  }
}

/**
 * The open connections of a pool: pg.Pool keeps them in `_clients`, which it does not publish; the
 * pools here expose theirs under the same name, so the change listener can attach to those opened
 * before it started.
 */
export const openClientsOf = (pool: object): pg.PoolClient[] =>
  (pool as { _clients?: pg.PoolClient[] })._clients ?? []

/** FNV-1a: a cheap, stable spread of schema names over the lanes. */
function hash(text: string, seed = 0x811c9dc5): number {
  let h = seed
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * A pool of `size` connections, each in its own lane, where a statement for an organisation's
 * schema goes to the less busy of that schema's HOME_LANES home connections, waiting for one when
 * both are busy (see SPILL_AFTER_WAITING for the exception).
 *
 * Why: statements name their schema, so each organisation has its own texts and catalogue
 * entries. A backend plans a statement in a schema it has not seen, or has forgotten, from the
 * catalogues (5-20 ms instead of under 1); it keeps at most PREPARED_PER_CONNECTION statements
 * prepared (one holds ~200 KB). Had every connection served every organisation, round-robin
 * reads over 1,000 organisations would pay that on most requests after each invalidation reset;
 * with two homes each connection sees about 2/size of the organisations, so the same bounded
 * memory covers size/2 times as many and a reset costs each backend that share only.
 */
export class LanePool extends EventEmitter {
  private readonly lanes: pg.Pool[]
  /** connect() calls a lane was picked for that have not got their client yet. */
  private readonly pending: number[]
  private cursor = 0
  private readonly homeCount: number
  readonly options: pg.Pool['options']

  constructor(config: pg.PoolConfig, size: number) {
    super()
    this.lanes = Array.from({ length: Math.max(1, size) }, () => new pg.Pool({ ...config, max: 1 }))
    this.homeCount = Math.min(homeLanes, this.lanes.length)
    this.pending = this.lanes.map(() => 0)
    for (const lane of this.lanes) {
      lane.on('connect', (client) => this.emit('connect', client))
      lane.on('error', (error, client) => this.emit('error', error, client))
    }
    this.options = { ...(this.lanes[0] as pg.Pool).options, max: this.lanes.length }
  }

  get totalCount(): number {
    return this.lanes.reduce((sum, lane) => sum + lane.totalCount, 0)
  }

  get idleCount(): number {
    return this.lanes.reduce((sum, lane) => sum + lane.idleCount, 0)
  }

  get waitingCount(): number {
    return this.lanes.reduce((sum, lane) => sum + lane.waitingCount, 0)
  }

  /** Every open connection (the change listener attaches to those opened before it started). */
  get _clients(): pg.PoolClient[] {
    return this.lanes.flatMap(openClientsOf)
  }

  /** The lanes that serve a schema, the first preferred on a tie: distinct, stable for the name. */
  homeLanes(schema: string): number[] {
    const size = this.lanes.length
    // Every lane: in order from the first home (hashing until all were found would take long).
    if (this.homeCount === size) return Array.from({ length: size }, (_, k) => (hash(schema) + k) % size)
    const homes: number[] = []
    for (let k = 0; homes.length < this.homeCount; k++) {
      // One hash per try, each with another seed, until enough distinct lanes are found.
      const lane = hash(schema, 0x811c9dc5 + k * 0x9e3779b9) % size
      if (!homes.includes(lane)) homes.push(lane)
    }
    return homes
  }

  /** 0 idle, 1 may open its connection, 2 and more busy (2 + the statements already waiting for it). */
  private load(i: number): number {
    const lane = this.lanes[i] as pg.Pool
    // Every connect() of a lane comes through here, so its waiters are those it was picked for.
    const pending = this.pending[i] ?? 0
    if (lane.idleCount - pending > 0) return 0
    if (lane.totalCount === 0 && pending === 0) return 1
    return 2 + pending
  }

  /** The least loaded of `lanes`, the earliest on a tie. */
  private leastLoaded(lanes: Iterable<number>): { lane: number; load: number } {
    let best = { lane: -1, load: Number.POSITIVE_INFINITY }
    for (const i of lanes) {
      const load = this.load(i)
      if (load < best.load) best = { lane: i, load }
    }
    return best
  }

  /** Every lane, starting at a rotating one so that ties spread evenly. */
  private *rotation(): Generator<number> {
    const start = this.cursor++ % this.lanes.length
    for (let k = 0; k < this.lanes.length; k++) yield (start + k) % this.lanes.length
  }

  /**
   * A statement without a schema: the least busy lane. A schema's: the least busy of its homes,
   * waiting for it when all are busy, unless SPILL_AFTER_WAITING statements already wait there
   * and another lane can serve now.
   */
  private pick(): number {
    const schema = sendingFor
    if (schema === undefined) return this.leastLoaded(this.rotation()).lane
    const home = this.leastLoaded(this.homeLanes(schema))
    if (home.load < 2 + SPILL_AFTER_WAITING) return home.lane
    const free = this.leastLoaded(this.rotation())
    return free.load < 2 ? free.lane : home.lane
  }

  connect = (async (): Promise<pg.PoolClient> => {
    const i = this.pick()
    this.pending[i] = (this.pending[i] ?? 0) + 1
    try {
      return await (this.lanes[i] as pg.Pool).connect()
    } finally {
      this.pending[i] = (this.pending[i] ?? 1) - 1
    }
  }) as pg.Pool['connect']

  /** Like pg.Pool#query, but a query error keeps the connection (and what it prepared) unless the connection broke. */
  query = ((...args: unknown[]) =>
    queryKeepingConnection(this.connect(), args)) as unknown as pg.Pool['query']

  end = (async () => {
    await Promise.all(this.lanes.map((lane) => lane.end()))
  }) as pg.Pool['end']
}
