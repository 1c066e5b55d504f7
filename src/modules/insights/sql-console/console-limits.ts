import pg from 'pg'
import type { Config } from '../../../config.js'
import { MAIN_CLUSTER } from '../../../db/clusters.js'
import type { Database } from '../../../db/database.js'
import { survivesLostConnections } from '../../../db/faults.js'
import { currentAffinity } from '../../../db/lane-pool.js'
import { AppError } from '../../../errors.js'

/** Growth of the embedded database's heap during one console query past which its thread is restarted. */
export const HEAP_GROWTH_RESTART_BYTES = 128 * 1024 * 1024

/** How long a console query waits for a free console connection before it is answered 429. */
export const QUEUE_WAIT_MS = 1_000

/** Where console statements run, how many at once, and what stops one that runs too long. */
export interface ConsoleRunner {
  /**
   * On PostgreSQL a pool of its own (SQL_CONSOLE_CONNECTIONS), so console statements never take
   * the API's connections; on the embedded database the database's one connection.
   */
  pool: Pick<pg.Pool, 'connect'>
  slots: ConsoleSlots
  /** statement_timeout of console statements (PostgreSQL; inside PGlite it never fires). */
  timeoutMs: number
  /**
   * Embedded: a console query holding the database longer than `limitMs` has its thread restarted,
   * as has one after which the thread's WASM heap (which never shrinks) grew by over HEAP_GROWTH_RESTART_BYTES.
   */
  watchdog: { limitMs: number; restart: () => Promise<void>; heapBytes: () => Promise<number> } | null
}

const runners = new WeakMap<Database, ConsoleRunner>()

/** One runner per database, whichever app (or test file) asks first: its pool is closed with the database. */
export function consoleRunner(database: Database, config: Config): ConsoleRunner {
  let runner = runners.get(database)
  if (runner) return runner
  const postgres = database.kind === 'postgres'
  const retryAfterSeconds = Math.ceil(
    (postgres ? config.sqlConsoleTimeoutMs : config.sqlConsoleEmbeddedTimeLimitMs) / 1000,
  )
  // The embedded database is one connection: one console statement at a time, whatever the setting.
  const total = postgres ? config.sqlConsoleConnections : 1
  const slots = new ConsoleSlots(
    total,
    Math.min(total, config.sqlConsoleConnectionsPerOrganisation),
    retryAfterSeconds,
  )
  let pool: Pick<pg.Pool, 'connect'> = database.pool
  const consolePoolOf = (options: pg.PoolConfig) => {
    const consolePool = new pg.Pool({
      ...options,
      max: total,
      idleTimeoutMillis: 30_000,
      application_name: `${database.pool.options.application_name ?? 'cartage'}-console`,
    })
    // An idle console connection that drops is replaced on the next query.
    consolePool.on('error', () => {})
    survivesLostConnections(consolePool)
    database.atClose(() => consolePool.end())
    return consolePool
  }
  const clusters = database.clusters
  if (clusters) {
    // One console pool per cluster; a connection comes from the cluster of the organisation it is
    // taken for (withSchemaAffinity around connect, read before anything is awaited).
    const pools = new Map(
      clusters.names.map((name) => [name, consolePoolOf(clusters.pools.get(name)?.options ?? {})]),
    )
    pool = {
      connect: (async () => {
        const schema = currentAffinity()
        const cluster = schema === undefined ? MAIN_CLUSTER : await clusters.clusterOf(schema)
        return (pools.get(cluster) as pg.Pool).connect()
      }) as pg.Pool['connect'],
    }
  } else if (postgres) pool = consolePoolOf(database.pool.options)
  runner = {
    pool,
    slots,
    timeoutMs: config.sqlConsoleTimeoutMs,
    watchdog:
      !postgres && database.restartEmbedded && database.embeddedHeapBytes
        ? {
            limitMs: config.sqlConsoleEmbeddedTimeLimitMs,
            restart: database.restartEmbedded,
            heapBytes: database.embeddedHeapBytes,
          }
        : null,
  }
  // Only a process whose console is used pays for the standby thread a quick restart needs.
  if (runner.watchdog) database.prepareEmbeddedRestart?.()
  runners.set(database, runner)
  return runner
}

export const consoleBusy = (retryAfterSeconds: number) =>
  Object.assign(
    new AppError(
      429,
      'sql_console_busy',
      'Every SQL console connection is in use (or your organisation already runs a query); try again later.',
    ),
    { retryAfterSeconds },
  )

interface Waiter {
  key: string
  admit: (release: () => void) => void
  timer: NodeJS.Timeout
}

/**
 * Admission of console statements: at most `total` at once in the process and `perKey` per
 * organisation; a query that cannot start waits up to QUEUE_WAIT_MS in arrival order, then is
 * answered 429 with Retry-After rather than queueing work without bound.
 */
export class ConsoleSlots {
  private running = 0
  private readonly byKey = new Map<string, number>()
  private readonly waiting: Waiter[] = []

  constructor(
    private readonly total: number,
    private readonly perKey: number,
    private readonly retryAfterSeconds: number,
  ) {}

  acquire(key: string): Promise<() => void> {
    // Those waiting are held by their own organisation's limit (a free slot admits them at once).
    if (this.fits(key)) return Promise.resolve(this.take(key))
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        key,
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1)
          reject(consoleBusy(this.retryAfterSeconds))
        }, QUEUE_WAIT_MS),
      }
      this.waiting.push(waiter)
    })
  }

  private fits(key: string) {
    return this.running < this.total && (this.byKey.get(key) ?? 0) < this.perKey
  }

  private take(key: string): () => void {
    this.running++
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      this.running--
      const left = (this.byKey.get(key) ?? 1) - 1
      if (left === 0) this.byKey.delete(key)
      else this.byKey.set(key, left)
      this.admitWaiting()
    }
  }

  private admitWaiting() {
    for (let i = 0; i < this.waiting.length && this.running < this.total; ) {
      const waiter = this.waiting[i] as Waiter
      if (!this.fits(waiter.key)) {
        i++
        continue
      }
      this.waiting.splice(i, 1)
      clearTimeout(waiter.timer)
      waiter.admit(this.take(waiter.key))
    }
  }
}
