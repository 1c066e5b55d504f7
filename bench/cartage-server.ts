/**
 * Cartage as deployed, minus logging: both apps over one database from the environment
 * (DATABASE_URL or CARTAGE_DATA_DIR, DB_POOL_SIZE). Prints `{"core":port,"global":port}`.
 * BENCH_TRACE_SQL=<file> appends every statement sent to that file (bench/sql-trace.ts).
 */
import { buildCoreApp } from '../src/apps/core/app.js'
import { buildGlobalApp } from '../src/apps/global/app.js'
import { createServices } from '../src/apps/services.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrate } from '../src/db/migrator.js'
import { listenAndAnnounce } from './server-process.js'
import { traceSql } from './sql-trace.js'

// bench/verify-sql.ts captures what Cartage sends; never set while measuring.
if (process.env.BENCH_TRACE_SQL) traceSql(process.env.BENCH_TRACE_SQL)
const config = loadConfig()
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: config.dbPoolSize,
  applicationName: 'cartage-bench',
})
await migrate(database)
// As src/main.ts builds them, without a logger.
const deps = { config, database, services: await createServices(config, database, false) }
const core = await buildCoreApp(deps, false)
const global = await buildGlobalApp(deps, false)
await listenAndAnnounce({ core, global }, () => database.close())
