/**
 * The yardstick: bare Fastify and a `pg` pool of the same size as Cartage's, one route per
 * scenario (`/bench/<name>`) running exactly the scenario's statements, one after another.
 * The seed comes in BENCH_SEED.
 */
import Fastify from 'fastify'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { type Seed, scenarios } from './scenarios.js'
import { listenAndAnnounce } from './server-process.js'

const config = loadConfig()
const seed = JSON.parse(process.env.BENCH_SEED ?? '{}') as Seed
// Only the pg.Pool is used: for PostgreSQL a plain pool of DB_POOL_SIZE, for the embedded
// database the one-connection pool over this process's own copy of the data directory.
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: config.dbPoolSize,
  applicationName: 'cartage-bench-baseline',
})
const { pool } = database

const app = Fastify()
for (const scenario of scenarios) {
  const statements = scenario.baseline.statements.map(({ sql, params }) => ({ sql, values: params(seed) }))
  app.route({
    method: scenario.cartage.method,
    url: `/bench/${scenario.name}`,
    handler: async () => {
      let rows: unknown[] = []
      for (const { sql, values } of statements) rows = (await pool.query(sql, values)).rows
      return { rows }
    },
  })
}
await listenAndAnnounce({ baseline: app }, () => database.close())
