#!/usr/bin/env node
import { Command, Option } from 'commander'
import pino from 'pino'
import { buildCoreApp } from './apps/core/app.js'
import { buildGlobalApp } from './apps/global/app.js'
import { createServices } from './apps/services.js'
import { type Config, ConfigError, loadConfig } from './config.js'
import { type Database, openDatabase } from './db/database.js'
import { migrate, migrationStatus } from './db/migrator.js'
import type { HttpApp } from './http/kernel.js'

// Credentials never reach the log, whatever a future log line includes.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-dispatch-api-key"]',
  'res.headers["set-cookie"]',
]

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

async function open(config: Config, name: string): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    applicationName: name,
  })
}

const describeDb = (config: Config) =>
  config.databaseUrl
    ? `PostgreSQL (${new URL(config.databaseUrl).host})`
    : `embedded PGlite in ${config.dataDir}`

async function serve(api: 'core' | 'global' | 'both') {
  const config = configOrExit()
  const logger = pino({ level: config.logLevel, redact: REDACT })
  const database = await open(config, `cartage-${api}`)
  const report = await migrate(database, (done, total) => {
    if (done % 100 === 0 || done === total) logger.info({ done, total }, 'migrating organisation schemas')
  })
  logger.info({ database: describeDb(config), ...report }, 'database ready')

  const deps = { config, database, services: await createServices(config, database, logger) }
  const apps: { name: string; app: HttpApp; port: number }[] = []
  if (api !== 'global')
    apps.push({ name: 'Core API', app: await buildCoreApp(deps, logger), port: config.corePort })
  if (api !== 'core')
    apps.push({ name: 'Global API', app: await buildGlobalApp(deps, logger), port: config.globalPort })
  for (const entry of apps) {
    await entry.app.listen({ host: config.host, port: entry.port })
    const address = entry.app.server.address()
    const port = typeof address === 'object' && address ? address.port : entry.port
    const base = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`
    process.stdout.write(`${entry.name}: ${base}  (reference: ${base}/docs, OpenAPI: ${base}/openapi.json)\n`)
  }

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: draining in-flight requests')
    // A stuck request must not keep the process alive for ever.
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting')
      process.exit(1)
    }, 15_000)
    timer.unref()
    await Promise.allSettled(apps.map((entry) => entry.app.close()))
    logger.info('HTTP servers closed; closing the database')
    await database.close()
    logger.info('stopped')
    process.exit(0)
  }
  process.once('SIGTERM', () => void stop('SIGTERM'))
  process.once('SIGINT', () => void stop('SIGINT'))
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
        `${report.tenantSchemasMigrated} of ${report.tenantSchemas} organisation schema(s) migrated\n`,
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
        `organisation schemas: ${s.tenantSchemas}, behind: ${s.tenantSchemasBehind}\n`,
    )
    process.exitCode = s.globalPending.length === 0 && s.tenantSchemasBehind === 0 ? 0 : 1
  } finally {
    await database.close()
  }
}

const program = new Command('cartage').description('Cartage supply chain platform: Core API and Global API')
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

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`cartage: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
