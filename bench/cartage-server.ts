/**
 * Cartage as deployed, minus logging: both apps over one database from the environment
 * (DATABASE_URL or CARTAGE_DATA_DIR, DB_POOL_SIZE). Prints `{"core":port,"global":port}`.
 * BENCH_EXTRA_CPU_US=<µs> adds busy work to every Core API request (an experiment knob).
 */

import { buildCoreApp } from '../src/apps/core/app.js'
import { buildGlobalApp } from '../src/apps/global/app.js'
import { EVENT_HANDLERS, MIGRATIONS } from '../src/apps/modules.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrate } from '../src/db/migrator.js'
import { createServices } from '../src/platform/services.js'
import { listenAndAnnounce } from './server-process.js'

const config = loadConfig()
const database = await openDatabase({
  migrations: MIGRATIONS,
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: config.dbPoolSize,
  sharedBuffersMb: config.embeddedSharedBuffersMb,
  applicationName: 'cartage-bench',
})
await migrate(database)
// As src/main.ts builds them, without a logger.
const deps = {
  config,
  database,
  services: await createServices(config, database, false, { eventHandlers: EVENT_HANDLERS }),
}
const core = await buildCoreApp(deps, false)
const global = await buildGlobalApp(deps, false)
// Sensitivity experiment: BENCH_EXTRA_CPU_US=<µs> burns that much CPU per Core API request, to
// measure what a microsecond of per-request work costs in throughput.
const extraCpuUs = Number(process.env.BENCH_EXTRA_CPU_US ?? 0)
if (extraCpuUs > 0) {
  core.addHook('onRequest', async () => {
    const until = process.hrtime.bigint() + BigInt(Math.round(extraCpuUs * 1000))
    while (process.hrtime.bigint() < until) {}
  })
}
await listenAndAnnounce({ core, global }, () => database.close())
