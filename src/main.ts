#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { Command, Option } from 'commander'
import { type ApiName, type Cartage, openCartage } from './apps/cartage.js'
import { MIGRATIONS, warmPlanningThread, warmZoneThread } from './apps/modules.js'
import { type LocalApps, seedDemoCommand } from './cli/seed-command.js'
import { type Config, ConfigError, loadConfig } from './config.js'
import { recordServedApis, type ServedApis } from './db/data-dir-lock.js'
import { type Database, openDatabase } from './db/database.js'
import { migrate, migrationStatus } from './db/migrator.js'
import { moveOrganisation } from './db/move-organisation.js'
import { createLogger } from './http/logging.js'
import { startMetricsServer } from './http/metrics.js'
import { rotateSigningKey, signingKeyFile } from './security/signing.js'

function configOrExit(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`cartage: ${problem}\n`)
      process.exit(2)
    }
    throw error
  }
}

/** The database alone, for the commands that serve nothing (migrate, db:status, keys:rotate). */
async function open(config: Config, name: string): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    poolMode: config.databasePoolMode,
    directUrl: config.databaseDirectUrl,
    clusters: config.databaseClusters,
    placement: config.databasePlacement,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    sharedBuffersMb: config.embeddedSharedBuffersMb,
    applicationName: name,
    migrations: MIGRATIONS,
  })
}

// src/main.ts and dist/main.js both sit one level below package.json.
const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version

/**
 * Under `npm start` the server's parent is npm. Whoever stops npm (a supervisor, a script, a
 * closed terminal) means the server too, but npm may die without passing the signal on: when
 * the parent goes away the process is re-parented, and the server stops as if signalled.
 */
function stopWhenParentExits(stop: (reason: string) => void) {
  if (!process.env.npm_lifecycle_event) return
  // process.ppid is read once at start-up on some Node versions: ask about the parent itself.
  const parent = process.ppid
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') return
      clearInterval(timer)
      stop('parent process exited')
    }
  }, 500)
  timer.unref()
}

const describeDb = (config: Config) =>
  config.databaseUrl
    ? `PostgreSQL (${new URL(config.databaseUrl).host})`
    : `embedded PGlite in ${config.dataDir}`

/** How a process on this machine reaches an API listening on `host`. */
const localAddress = (host: string) =>
  host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host

async function serve(api: 'core' | 'global' | 'both') {
  const config = configOrExit()
  const logger = createLogger(config.logLevel)
  let cartage: Cartage<ApiName> | undefined
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined
  let stopping = false
  const stop = async (reason: string, exitCode = 0) => {
    if (stopping) return
    stopping = true
    logger.info({ reason }, 'shutting down: draining in-flight requests')
    // A stuck request must not keep the process alive for ever.
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs)
    timer.unref()
    metricsServer?.close()
    // The HTTP servers first (draining), then the services and the database.
    await cartage?.close()
    logger.info('stopped')
    process.exit(exitCode)
  }

  try {
    cartage = await openCartage(config, {
      apis: api === 'both' ? ['core', 'global'] : [api],
      logger,
      applicationName: `cartage-${api}`,
      onLockLost: (error) => {
        logger.fatal({ err: error }, 'lost the lock on the data directory; stopping')
        void stop('data directory lock lost', 1)
      },
      migrate: (done, total) => {
        if (done % 100 === 0 || done === total) logger.info({ done, total }, 'migrating organisation schemas')
      },
      workers: true,
    })
    logger.info({ database: describeDb(config), ...cartage.migrated }, 'database ready')
    const apps = [
      { api: 'core', name: 'Core API', app: cartage.core, port: config.corePort },
      { api: 'global', name: 'Global API', app: cartage.global, port: config.globalPort },
    ] as const
    const served: ServedApis = {}
    for (const entry of apps) {
      if (!entry.app) continue
      await entry.app.listen({ host: config.host, port: entry.port })
      const address = entry.app.server.address()
      const port = typeof address === 'object' && address ? address.port : entry.port
      const base = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`
      process.stdout.write(
        `${entry.name}: ${base}  (reference: ${base}/docs, OpenAPI: ${base}/openapi.json)\n`,
      )
      served[entry.api] = `http://${localAddress(config.host)}:${port}`
    }
    // Plans are solved, and large zone bodies checked, on threads of their own: started now, after
    // readiness, not by the first plan or the first large zone.
    if (cartage.core) {
      warmPlanningThread()
      warmZoneThread()
    }
    // Beside the data directory's lock: `cartage seed` finds the APIs there and goes through them.
    if (!config.databaseUrl) recordServedApis(config.dataDir, served)
    if (config.metricsEnabled && config.metricsPort !== undefined) {
      metricsServer = await startMetricsServer(config.host, config.metricsPort)
      const address = metricsServer.address()
      logger.info(
        { port: typeof address === 'object' && address ? address.port : config.metricsPort },
        'metrics served',
      )
    }
  } catch (error) {
    metricsServer?.close()
    // A failed start (port in use, bad migration) leaves nothing behind: sockets, lock, temp folders.
    await cartage?.close().catch(() => {})
    throw error
  }

  // With the terminal or parent gone, a log line must not crash the stop half-way (EPIPE).
  process.stdout.on('error', () => {})
  process.stderr.on('error', () => {})
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void stop(signal))
  stopWhenParentExits((reason) => void stop(reason))
}

async function runMigrate() {
  const config = configOrExit()
  const database = await open(config, 'cartage-migrate')
  try {
    const report = await migrate(database, (done, total) => {
      if (done % 50 === 0 || done === total) process.stdout.write(`organisation schemas: ${done}/${total}\n`)
    })
    process.stdout.write(
      `${describeDb(config)}: ${report.globalApplied.length} global migration(s) applied; ` +
        `${report.tenantSchemasMigrated} of ${report.tenantSchemas} organisation schema(s) migrated\n` +
        (report.clusters.length > 1
          ? report.clusters
              .map((c) => `  cluster ${c.name}: ${c.tenantSchemasMigrated} of ${c.tenantSchemas} migrated\n`)
              .join('')
          : '') +
        (report.settled && report.settled.committed + report.settled.rolledBack > 0
          ? `  writes left prepared on other clusters: ${report.settled.committed} committed, ${report.settled.rolledBack} rolled back\n`
          : ''),
    )
  } finally {
    await database.close()
  }
}

async function rotateKeys() {
  const config = configOrExit()
  if (config.jwtPrivateKey) {
    process.stderr.write(
      'cartage: JWT_PRIVATE_KEY is set: rotate by setting a new key there and restarting\n',
    )
    process.exitCode = 2
    return
  }
  // Embedded, the running server holds the data directory: open() refuses, naming it.
  const database = await open(config, 'cartage-keys')
  try {
    await migrate(database)
    const file = signingKeyFile(config.dataDir)
    const { kid, retiredKid } = await rotateSigningKey(database.db, file)
    process.stdout.write(
      `new signing key ${kid} in ${file}\n` +
        (retiredKid
          ? `retired key ${retiredKid}: it signs nothing more; its tokens verify until they expire\n`
          : '') +
        'servers using this key file sign with the new key from now on (told by the database)\n',
    )
  } finally {
    await database.close()
  }
}

async function status() {
  const config = configOrExit()
  const database = await open(config, 'cartage-status')
  try {
    const s = await migrationStatus(database)
    process.stdout.write(
      `${describeDb(config)}\n` +
        `global migrations pending: ${s.globalPending.length === 0 ? 'none' : s.globalPending.join(', ')}\n` +
        `organisation schemas: ${s.tenantSchemas}, behind: ${s.tenantSchemasBehind}\n` +
        (s.clusters.length > 1
          ? s.clusters
              .map(
                (c) =>
                  `  cluster ${c.name}: global migrations pending ${c.globalPending.length}, ` +
                  `organisation schemas ${c.tenantSchemas}, behind ${c.tenantSchemasBehind}, ` +
                  `orphan schemas ${c.orphanSchemas}\n`,
              )
              .join('')
          : ''),
    )
    process.exitCode = s.globalPending.length === 0 && s.tenantSchemasBehind === 0 ? 0 : 1
  } finally {
    await database.close()
  }
}

async function seed(options: { demo?: boolean }) {
  if (!options.demo) {
    process.stderr.write('cartage: say what to seed: `cartage seed --demo`\n')
    process.exitCode = 2
    return
  }
  const config = configOrExit()
  // Used when no server holds the data directory (and always on PostgreSQL): the apps in-process.
  const openLocal = async (): Promise<LocalApps> => {
    const { core, global, close } = await openCartage(config, {
      applicationName: 'cartage-seed',
      logger: createLogger('error'),
    })
    return { core, global, where: describeDb(config), close }
  }
  await seedDemoCommand(config, openLocal, (line) => process.stdout.write(`${line}\n`))
}

async function moveOrg(organisation: string, cluster: string) {
  const config = configOrExit()
  const database = await open(config, 'cartage-move')
  try {
    const report = await moveOrganisation(database, organisation, cluster)
    const rows = Object.values(report.tables).reduce((sum, n) => sum + n, 0)
    process.stdout.write(
      `${report.schema}: moved from ${report.from} to ${report.to}; ${Object.keys(report.tables).length} tables, ` +
        `${rows} rows verified; writes waited ${report.frozenMs} ms\n`,
    )
  } finally {
    await database.close()
  }
}

const program = new Command('cartage')
  .description('Cartage supply chain platform: Core API and Global API')
  .version(version, '-v, --version')
program
  .command('serve')
  .description('migrate the database, then serve the APIs')
  .addOption(
    new Option('--api <api>', 'which API to serve').choices(['core', 'global', 'both']).default('both'),
  )
  .action((options: { api: 'core' | 'global' | 'both' }) => serve(options.api))
program
  .command('migrate')
  .description('apply pending global and organisation-schema migrations')
  .action(runMigrate)
program.command('db:status').description('show migration status (exit 1 when behind)').action(status)
program
  .command('org:move')
  .description('move an organisation (slug or schema name) to another cluster of DATABASE_CLUSTERS')
  .argument('<organisation>')
  .argument('<cluster>')
  .action(moveOrg)
program
  .command('keys:rotate')
  .description('make a new access-token signing key (earlier keys keep verifying until their tokens expire)')
  .action(rotateKeys)
program
  .command('seed')
  .description('create a demo organisation with data in every area (idempotent)')
  .option('--demo', "the demo organisation: prints its owner's email and a generated password")
  .action(seed)

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`cartage: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
