import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { useActorSetting } from './actor.js'
import { ClusterPool, type ClusterSetting, MAIN_CLUSTER, type PlacementPolicy } from './clusters.js'
import { type EmbeddedServer, startEmbeddedServer } from './embedded.js'
import { FairPool } from './fair-pool.js'
import { survivesLostConnections } from './faults.js'
import { type DatabasePool, LanePool } from './lane-pool.js'
import type { MigrationSet } from './migrator.js'
import { usePreparedStatements } from './prepared.js'
import { ReadReplica, type ReadTarget } from './read-replica.js'
import { storageState } from './storage-state.js'
import type { Tables } from './tables.js'

// Counts come back as int8; they always fit in a JS number here. Money and quantities
// (numeric) stay strings so no precision is lost on the way out.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10))

export type DatabaseKind = 'embedded' | 'postgres'

export interface Database {
  kind: DatabaseKind
  /** Typed query builder over the `global` tables; tenant tables through `withSchema(org schema)`. */
  db: Kysely<Tables>
  /**
   * For writes that may be lost in a crash (rate-limit counters): on PostgreSQL a small pool whose
   * commits do not wait for the disk flush. Never use it for business data.
   */
  relaxedDb: Kysely<Tables>
  pool: DatabasePool
  /**
   * `transaction` behind a transaction-mode pooler (DATABASE_POOL_MODE): every transaction may run
   * on another server session, so nothing may rely on session state between them.
   */
  poolMode: 'session' | 'transaction'
  /**
   * Where what needs a session of its own connects (LISTEN, the migration lock): PostgreSQL
   * directly (DATABASE_DIRECT_URL) in `transaction` pool mode; absent = the pool's own settings.
   */
  directConnection?: pg.ClientConfig
  /** The migrations this database is brought up to (every module's; see apps/modules.ts). */
  migrations: MigrationSet
  /**
   * PostgreSQL with DATABASE_READ_URL: a streaming replica for the heavy reads (the SQL console,
   * the dashboard), used through `readTarget` so that a read never misses an acknowledged write.
   */
  readReplica?: ReadReplica
  /**
   * Embedded only (absent for `memory://`): stops the database thread, whatever statement it is
   * running, and starts it again on the same data (see EmbeddedServer.restart). The pool's one
   * connection must be held by the caller, and released broken afterwards, so no other statement is
   * cut off and those queued behind it reach the new thread.
   */
  restartEmbedded?: () => Promise<void>
  /** Embedded only: makes the next restartEmbedded quicker, at the cost of an idle thread (see EmbeddedServer). */
  prepareEmbeddedRestart?: () => void
  /** Embedded only: the size of the database thread's WASM heap, which grows and never shrinks until a restart. */
  embeddedHeapBytes?: () => Promise<number>
  /**
   * PostgreSQL with DATABASE_CLUSTERS: organisation schemas on several clusters (db/clusters.ts).
   * `pool` and `db` then route each statement to its organisation's cluster.
   */
  clusters?: ClusterPool
  /** Runs `task` first when the database is closed (e.g. to end a listening connection). */
  atClose(task: () => Promise<void>): void
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** PostgreSQL URL; absent = embedded PGlite in `dataDir` (`memory://` for a throwaway one). */
  databaseUrl?: string | undefined
  dataDir: string
  poolSize: number
  /** Every module's migrations: what `migrate` applies and readiness checks. */
  migrations: MigrationSet
  applicationName?: string
  /** PostgreSQL only: `transaction` when `databaseUrl` is a transaction-mode pooler (needs `directUrl`). */
  poolMode?: 'session' | 'transaction'
  /** PostgreSQL itself, not through the pooler (DATABASE_DIRECT_URL). */
  directUrl?: string | undefined
  /** Embedded only: called if the data-directory lock is lost while the database is open. */
  onLockLost?: (error: Error) => void
  /** Embedded only: a new data directory is created already migrated, by a process that then exits. */
  migrateNewDataDir?: boolean
  /** Embedded only: PostgreSQL's shared_buffers in MB (EMBEDDED_SHARED_BUFFERS_MB). */
  sharedBuffersMb?: number
  /** PostgreSQL only: a streaming replica for the heavy reads (DATABASE_READ_URL) and its limits. */
  readReplica?: { url: string; maxLagSeconds: number; waitMs: number } | undefined
  /** PostgreSQL only: the clusters beside DATABASE_URL's that hold organisation schemas (DATABASE_CLUSTERS). */
  clusters?: readonly ClusterSetting[] | undefined
  /** Where new organisations go when there are several clusters (DATABASE_PLACEMENT); default the fewest. */
  placement?: PlacementPolicy | undefined
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedServer | undefined
  let pool: DatabasePool
  let relaxedPool: pg.Pool | undefined
  let clusters: ClusterPool | undefined
  let fairPool: FairPool | undefined
  const poolMode = options.databaseUrl ? (options.poolMode ?? 'session') : 'session'
  if (poolMode === 'transaction' && !options.directUrl)
    throw new Error('a transaction-mode pooler needs a direct URL (DATABASE_DIRECT_URL) for LISTEN and locks')
  if (options.databaseUrl) {
    const lanes = (connectionString: string) =>
      new LanePool(
        {
          connectionString,
          application_name: options.applicationName ?? 'cartage',
          // Retired after 10 minutes, so the statements each one prepared (db/prepared.ts) follow current use.
          maxLifetimeSeconds: 600,
        },
        options.poolSize,
      )
    pool = lanes(options.databaseUrl)
    if (options.clusters?.length) {
      const pools = new Map<string, DatabasePool>([[MAIN_CLUSTER, pool]])
      for (const cluster of options.clusters) pools.set(cluster.name, lanes(cluster.url))
      clusters = new ClusterPool(pools, options.placement ?? { kind: 'fewest' })
      pool = clusters
    }
    relaxedPool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 2,
      application_name: `${options.applicationName ?? 'cartage'}-relaxed`,
      // A pooler refuses (PgBouncer) or cannot keep a startup `options`: there its commits wait for the disk.
      ...(poolMode === 'session' ? { options: '-c synchronous_commit=off' } : {}),
    })
    relaxedPool.on('error', () => {})
    survivesLostConnections(relaxedPool)
  } else {
    if (!options.dataDir.startsWith('memory://')) storageState.watchDirectory(options.dataDir)
    embedded = await startEmbeddedServer(options.dataDir, {
      ...(options.onLockLost ? { onLockLost: options.onLockLost } : {}),
      ...(options.migrateNewDataDir ? { migrateNewDataDir: options.migrations } : {}),
      ...(options.sharedBuffersMb ? { sharedBuffersMb: options.sharedBuffersMb } : {}),
    })
    // PGlite is one connection: a pool of one serialises statements and keeps a transaction's
    // statements together, so concurrent requests never interleave; the fair pool takes turns
    // between organisations, so one organisation's backlog never holds up the others.
    fairPool = new FairPool(
      new pg.Pool({
        host: embedded.socketDir,
        port: 5432,
        user: 'postgres',
        database: 'postgres',
        max: 1,
        // PGlite has one session, whichever socket reaches it: keep the one connection open (a new
        // one would find the old one's prepared statements there; db/prepared.ts never reuses a name).
        idleTimeoutMillis: 0,
      }),
    )
    pool = fairPool
  }
  // An idle client erroring (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  survivesLostConnections(pool)
  // A statement prepared on one server session is unknown to the next (PgBouncer before 1.21).
  if (poolMode === 'session') usePreparedStatements(pool)
  // After the prepared statements' wrapper, so the actor is set before whatever it sends.
  useActorSetting(pool, poolMode)
  // Embedded, Kysely's connections join their organisation's queue at their first statement.
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: fairPool?.deferred ?? pool }) })
  const relaxedDb = relaxedPool
    ? new Kysely<Tables>({ dialect: new PostgresDialect({ pool: relaxedPool }) })
    : db
  const closing: (() => Promise<void>)[] = []
  const readReplica =
    relaxedPool && options.readReplica
      ? new ReadReplica({
          ...options.readReplica,
          primary: relaxedPool,
          applicationName: options.applicationName ?? 'cartage',
        })
      : undefined
  if (readReplica) {
    closing.push(() => readReplica.close())
    void readReplica.check()
  }
  return {
    kind: embedded ? 'embedded' : 'postgres',
    db,
    relaxedDb,
    pool,
    poolMode,
    ...(poolMode === 'transaction' && options.directUrl
      ? {
          directConnection: {
            connectionString: options.directUrl,
            application_name: options.applicationName ?? 'cartage',
          },
        }
      : {}),
    migrations: options.migrations,
    ...(readReplica ? { readReplica } : {}),
    ...(clusters ? { clusters } : {}),
    ...(embedded?.restart
      ? { restartEmbedded: embedded.restart, embeddedHeapBytes: embedded.heapBytes }
      : {}),
    atClose(task) {
      closing.push(task)
    },
    async close() {
      await Promise.all(closing.splice(0).map((task) => task().catch(() => {})))
      if (relaxedDb !== db) await relaxedDb.destroy()
      await db.destroy()
      await embedded?.stop()
    },
  }
}

/**
 * Where a heavy read runs: the replica when one is configured, fit and caught up with every write
 * acknowledged so far (db/read-replica.ts), else the primary.
 */
export async function readTarget(
  database: Database,
  primary: Omit<ReadTarget, 'onReplica'> = { db: database.db, pool: database.pool },
): Promise<ReadTarget> {
  return database.readReplica ? database.readReplica.target(primary) : { ...primary, onReplica: false }
}
