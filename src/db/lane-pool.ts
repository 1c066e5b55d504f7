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

/** Statements for a schema wait for its home connection rather than take another (a bench weighs it). */
let strictLanes = false

/** Makes every schema's statements wait for its home connection (bench/schemas.ts). */
export function setStrictLanes(strict: boolean): void {
  strictLanes = strict
}

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

/** FNV-1a: a cheap, stable spread of schema names over the lanes. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * A pool of `size` connections, each in its own lane, where a statement for an organisation's
 * schema goes to that schema's home connection when it is free, and to any free one otherwise.
 *
 * Why: statements name their schema, so each organisation has its own texts, and a connection
 * keeps at most PREPARED_PER_CONNECTION of them prepared (one holds ~200 KB in the PostgreSQL
 * backend). With every connection serving every organisation, a connection would keep the
 * statements of about 200 of 1,000 organisations and plan the others on each request (~1 ms
 * more); with lanes, each connection mostly sees 1/size of the organisations, so the same bounded
 * memory covers size times as many. Catalogue caches in each backend shrink the same way.
 */
export class LanePool extends EventEmitter {
  private readonly lanes: pg.Pool[]
  /** connect() calls a lane was picked for that have not got their client yet. */
  private readonly pending: number[]
  private cursor = 0
  readonly options: pg.Pool['options']

  constructor(config: pg.PoolConfig, size: number) {
    super()
    this.lanes = Array.from({ length: Math.max(1, size) }, () => new pg.Pool({ ...config, max: 1 }))
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
    return this.lanes.flatMap((lane) => (lane as unknown as { _clients?: pg.PoolClient[] })._clients ?? [])
  }

  /** The home lane of a schema (exported for tests through `laneOf`). */
  homeLane(schema: string): number {
    return hash(schema) % this.lanes.length
  }

  /**
   * The home lane if it can serve now; else a lane with an idle connection, then one that may
   * open its connection, then the shortest queue (the home lane on a tie).
   */
  private pick(): number {
    const schema = sendingFor
    const home = schema === undefined ? -1 : this.homeLane(schema)
    if (strictLanes && home >= 0) return home
    let best = -1
    let bestScore = Number.POSITIVE_INFINITY
    // Statements without a schema start the search at a rotating lane, so they spread evenly.
    const start = this.cursor++ % this.lanes.length
    for (let k = 0; k < this.lanes.length; k++) {
      const i = (start + k) % this.lanes.length
      const lane = this.lanes[i] as pg.Pool
      const idle = lane.idleCount - (this.pending[i] ?? 0)
      const score =
        idle > 0
          ? 0
          : lane.totalCount === 0 && (this.pending[i] ?? 0) === 0
            ? 1
            : 2 + lane.waitingCount + (this.pending[i] ?? 0)
      const preferred = score - (i === home ? 0.5 : 0)
      if (preferred < bestScore) {
        best = i
        bestScore = preferred
      }
    }
    return best
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
