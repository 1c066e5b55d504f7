/**
 * The yardstick: bare Fastify and a `pg` pool of the same size as Cartage's, one route per
 * scenario (`/bench/<name>`) running the scenario's hand-written statements: steps in order, the
 * statements of a step at once, a transaction's steps on one connection. It answers with every
 * row it read (`{ results: rows[] per statement }`), as a bare route returning its data would.
 * The seed comes in BENCH_SEED; the schema name and API key digest are read from the database.
 */

import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import pg from 'pg'
import { MIGRATIONS } from '../src/apps/modules.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import type { DatabasePool } from '../src/db/lane-pool.js'
import { resolveSeed } from './resolve-seed.js'
import { type Fresh, type Seed, sqlOf } from './scenario-types.js'
import { selectedScenarios } from './scenarios.js'
import { listenAndAnnounce } from './server-process.js'

const config = loadConfig()
// For PostgreSQL a plain pg.Pool of DB_POOL_SIZE (what a careful engineer writes by hand); for
// the embedded database the one-connection pool over this process's own copy of the data directory.
const database = config.databaseUrl
  ? undefined
  : await openDatabase({
      migrations: MIGRATIONS,
      dataDir: config.dataDir,
      poolSize: config.dbPoolSize,
      applicationName: 'cartage-bench-baseline',
    })
const pool: DatabasePool =
  database?.pool ??
  new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.dbPoolSize,
    application_name: 'cartage-bench-baseline',
  })
// As src/db/database.ts: rate-limit counters go through a small pool that does not wait for the disk.
const relaxed = config.databaseUrl
  ? new pg.Pool({
      connectionString: config.databaseUrl,
      max: 2,
      application_name: 'cartage-bench-baseline-relaxed',
      options: '-c synchronous_commit=off',
    })
  : pool
const seed = await resolveSeed(pool, JSON.parse(process.env.BENCH_SEED ?? '{}') as Seed)

type Queryable = Pick<pg.PoolClient, 'query'>

const app = Fastify()
for (const scenario of selectedScenarios()) {
  const steps = scenario.baseline.steps.map((step) => step.map((s) => ({ ...s, text: sqlOf(s, seed) })))
  // On one connection Kysely queues a step's statements (SingleConnectionProvider): one after another.
  const together = !scenario.baseline.oneConnection
  let served = 0
  const run = async (client: Queryable) => {
    const ids: string[] = []
    const results: Record<string, unknown>[][] = []
    const fresh: Fresh = {
      id: (n) => (ids[n] ??= randomUUID()),
      now: new Date(),
      previous: [],
      results,
      serial: served++,
    }
    const send = (s: (typeof steps)[number][number]) =>
      (s.relaxed ? relaxed : client).query<Record<string, unknown>>(
        s.name
          ? { name: s.name, text: s.text, values: s.params(seed, fresh) }
          : { text: s.text, values: s.params(seed, fresh) },
      )
    for (const step of steps) {
      const done = together ? await Promise.all(step.map(send)) : []
      if (!together) for (const statement of step) done.push(await send(statement))
      for (const result of done) results.push(result.rows)
      fresh.previous = done.at(-1)?.rows ?? []
    }
    return { results, body: scenario.baseline.respond ? scenario.baseline.respond(results) : { results } }
  }
  app.route({
    method: scenario.cartage.method,
    url: `/bench/${scenario.name}`,
    handler: async (_request, reply) => {
      // Row counts per statement in a header, so bench/run.ts can check a wrong parameter (a 0).
      const answer = (done: Awaited<ReturnType<typeof run>>) => {
        reply.header('x-bench-rows', JSON.stringify(done.results.map((rows) => rows.length)))
        if (scenario.baseline.contentType) reply.type(scenario.baseline.contentType)
        return done.body
      }
      if (together) return answer(await run(pool))
      const client = await pool.connect()
      // A checked-out client's errors are ours: a connection lost at shutdown must fail the request, not the process.
      const lost = () => {}
      client.on('error', lost)
      let failed = false
      try {
        return answer(await run(client))
      } catch (error) {
        failed = true
        await client.query('rollback').catch(() => {})
        throw error
      } finally {
        client.off('error', lost)
        client.release(failed)
      }
    },
  })
}
await listenAndAnnounce({ baseline: app }, async () => {
  if (relaxed !== pool) await relaxed.end()
  await (database ? database.close() : pool.end())
})
