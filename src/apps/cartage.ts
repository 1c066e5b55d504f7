import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.js'
import { SETTLE_PREPARED, settlePreparedWrites } from '../db/clusters.js'
import { type Database, openDatabase } from '../db/database.js'
import { type MigrationReport, migrate } from '../db/migrator.js'
import type { HttpApp } from '../http/kernel.js'
import type { Mailer } from '../mail/mailer.js'
import { PeriodicTask } from '../platform/periodic-task.js'
import { createServices, type Services } from '../platform/services.js'
import { buildCoreApp } from './core/app.js'
import { buildGlobalApp } from './global/app.js'
import { EVENT_HANDLERS, MIGRATIONS } from './modules.js'

export type ApiName = 'core' | 'global'

export interface OpenCartageOptions<A extends ApiName> {
  /** The APIs to build; both by default. */
  apis?: readonly A[]
  /** false (the default) logs nothing. */
  logger?: FastifyBaseLogger | false
  /**
   * An open database to run on, kept open by `close()` (a test worker's shared database, a second
   * process over one database). Without it one is opened from `config` and closed by `close()`.
   */
  database?: Database
  /** The opened database's connection name and pool size (default DB_POOL_SIZE). */
  applicationName?: string
  poolSize?: number
  /** Served processes: the embedded data directory's lock lost (database/embedded.ts). */
  onLockLost?: (error: Error) => void
  /** Apply pending migrations first (the default); a function also hears the progress. */
  migrate?: boolean | ((done: number, total: number) => void)
  /** Outgoing mail (tests read it from memory); by default SMTP or files, as configured. */
  mailer?: Mailer
  /**
   * The background work a served process runs: the Core API's while it is ready (webhook
   * deliveries, the overdue sweep) and, with DATABASE_CLUSTERS, the settling of prepared writes.
   */
  workers?: boolean
  /**
   * How often prepared writes are settled, from what age, and how long settling one may wait for
   * main's transaction holding its decision record (default SETTLE_PREPARED).
   */
  settlePrepared?: { intervalMs: number; olderThanMs: number; lockTimeoutMs?: number }
}

/** One Cartage process: its database, services and APIs. `close()` ends them in order. */
export type Cartage<A extends ApiName = ApiName> = {
  config: Config
  database: Database
  services: Services
  /** What start-up migrated, when it migrated. */
  migrated: MigrationReport | undefined
  close(): Promise<void>
} & { [K in A]: HttpApp }

/**
 * Puts a Cartage process together the one way `cartage serve`, `cartage seed`, the test harness
 * and the bench all use: the database (opened and migrated, or given), the services with every
 * module's event handlers, the APIs built from apps/modules.ts, and a close that ends them. A
 * failed start closes what it had opened before rethrowing.
 */
export async function openCartage<A extends ApiName = ApiName>(
  config: Config,
  options: OpenCartageOptions<A> = {},
): Promise<Cartage<A>> {
  const apis: readonly ApiName[] = options.apis ?? ['core', 'global']
  const logger = options.logger ?? false
  const ownsDatabase = !options.database
  const apps: Partial<Record<ApiName, HttpApp>> = {}
  let database = options.database
  let services: Services | undefined
  let settling: PeriodicTask | undefined
  const stopSettling = new AbortController()
  const close = async () => {
    // A round waiting on main's lock ends by its lock timeout: stopping does not wait for it.
    stopSettling.abort()
    await settling?.stop({ waitForRound: false })
    await Promise.allSettled(Object.values(apps).map((app) => app.close()))
    await services?.close()
    if (ownsDatabase) await database?.close()
  }
  try {
    database ??= await openDatabase({
      migrations: MIGRATIONS,
      databaseUrl: config.databaseUrl,
      poolMode: config.databasePoolMode,
      directUrl: config.databaseDirectUrl,
      ...(config.databaseReadUrl
        ? {
            readReplica: {
              url: config.databaseReadUrl,
              maxLagSeconds: config.readReplicaMaxLagSeconds,
              waitMs: config.readReplicaWaitMs,
            },
          }
        : {}),
      clusters: config.databaseClusters,
      placement: config.databasePlacement,
      dataDir: config.dataDir,
      poolSize: options.poolSize ?? config.dbPoolSize,
      sharedBuffersMb: config.embeddedSharedBuffersMb,
      ...(options.applicationName ? { applicationName: options.applicationName } : {}),
      // A server migrates on start anyway: a new directory is created migrated, in a process of its
      // own, so the server does not keep the heap that migrating grew (db/pglite-init.ts).
      ...(options.onLockLost ? { onLockLost: options.onLockLost, migrateNewDataDir: true } : {}),
    })
    const migrating = options.migrate ?? true
    const migrated = migrating
      ? await migrate(database, typeof migrating === 'function' ? migrating : undefined)
      : undefined
    // Writes a crashed process prepared on another cluster, committed or rolled back as main decided:
    // before migrating (migrate), then every so often while serving, so none waits for a restart.
    const settled = migrated?.settled
    if (logger && settled && settled.committed + settled.rolledBack > 0)
      logger.warn(settled, 'settled the writes a stopped process left prepared on other clusters')
    const clusters = database.clusters
    if (clusters && options.workers) {
      const every = options.settlePrepared ?? SETTLE_PREPARED
      // The writes left for a later round because main's writer still held their record: each is
      // logged once, not every round, and forgotten once a round no longer leaves it.
      const reported = new Set<string>()
      settling = new PeriodicTask(
        async () => {
          const left = new Set<string>()
          const done = await settlePreparedWrites(clusters, {
            olderThanMs: every.olderThanMs,
            lockTimeoutMs: every.lockTimeoutMs ?? SETTLE_PREPARED.lockTimeoutMs,
            signal: stopSettling.signal,
            onLeft: ({ cluster, gid }) => {
              left.add(gid)
              if (logger && !reported.has(gid))
                logger.warn(
                  { cluster, gid, lockTimeoutMs: every.lockTimeoutMs ?? SETTLE_PREPARED.lockTimeoutMs },
                  'a prepared write waits for a main transaction still holding its decision record; left for a later round',
                )
              reported.add(gid)
            },
          })
          for (const gid of reported) if (!left.has(gid)) reported.delete(gid)
          if (logger && done.committed + done.rolledBack > 0)
            logger.warn(done, 'settled the writes a stopped process left prepared on other clusters')
        },
        every.intervalMs,
        (error) => {
          // A round cut off by the stop is no failure: what it left is settled by the next process.
          if (logger && !stopSettling.signal.aborted)
            logger.warn({ err: error }, 'settling prepared writes failed')
        },
      )
      settling.start(every.intervalMs)
    }
    services = await createServices(config, database, logger, {
      eventHandlers: EVENT_HANDLERS,
      ...(options.mailer ? { mailer: options.mailer } : {}),
    })
    const deps = { config, database, services }
    if (apis.includes('core'))
      apps.core = await buildCoreApp(deps, logger, { workers: options.workers ?? false })
    if (apis.includes('global')) apps.global = await buildGlobalApp(deps, logger)
    return { config, database, services, migrated, close, ...apps } as Cartage<A>
  } catch (error) {
    await close().catch(() => {})
    throw error
  }
}
