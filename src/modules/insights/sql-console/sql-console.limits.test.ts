import type { LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { sharedOrganisation, useSharedOrganisation } from '../../../../test/fixtures.js'
import { type coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'

const ctx = useTestContext()
// The console's bounds are per organisation and each test waits for its own queries, so the tests
// take turns with one organisation (and 'another' where two must be told apart); the PostgreSQL
// story of many organisations registers its own.
useSharedOrganisation(ctx)

type Client = ReturnType<typeof coreAs>
const run = (core: Client, query: string) =>
  core({ method: 'POST', url: '/api/ai-studio/query', payload: { query } })
const readVehicles = (core: Client) => core({ method: 'GET', url: '/api/v1/vehicles' })

/** Per-row work the planner does not price: the embedded database never answered it, PostgreSQL ran it to its timeout. */
const SLOW_REGEX = "SELECT count(*) FROM generate_series(1, 100000) a WHERE repeat(a::text, 20000) ~ 'x*y'"
/** A join whose LIMIT used to prorate its estimate to almost nothing. */
const CROSS_JOIN =
  'SELECT 1 FROM generate_series(1, 100000) a, generate_series(1, 100000) b WHERE a.a + b.b < 0'

const postgres = testDatabaseUrl() !== undefined

/** Resolves with the label of whichever answers first. */
const first = (entries: Record<string, Promise<unknown>>) =>
  Promise.race(Object.entries(entries).map(([label, promise]) => promise.then(() => label)))

describe('SQL console work and result bounds', () => {
  it('refuses a cross join whose cost the row limit used to hide, before it runs', async () => {
    const { core } = await sharedOrganisation(ctx)
    const response = await run(core, CROSS_JOIN)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().reasons[0].message).toMatch(/estimated too expensive/)
  })

  it('stops a query that runs past its time, and another organisation is served meanwhile', async () => {
    const attacker = await sharedOrganisation(ctx)
    const other = await sharedOrganisation(ctx, 'another')
    const attack = run(attacker.core, SLOW_REGEX)
    const read = readVehicles(other.core)
    // The other organisation's read is answered before the attack is (PostgreSQL), or with it
    // once the embedded database's thread has been restarted.
    const order = await first({ read, attack })
    const stopped = await attack
    expect(stopped.statusCode, stopped.body).toBe(400)
    expect(stopped.json().code).toBe('sql_query_stopped')
    expect((await read).statusCode).toBe(200)
    if (postgres) expect(order).toBe('read')
    // The database serves the attacker's organisation and the other one afterwards.
    expect((await run(attacker.core, 'SELECT 1 AS one')).json().data.rows).toEqual([[1]])
    expect((await readVehicles(other.core)).statusCode).toBe(200)
    // Embedded, the stop restarts the database's thread (a new WASM instance reopening the data
    // directory): seconds alone, over a minute on a machine loaded far past its cores.
  }, 180_000)

  it('runs one console query per organisation at a time; the next waits briefly, then 429 with Retry-After', async () => {
    const { core } = await sharedOrganisation(ctx)
    const answers = await Promise.all([run(core, SLOW_REGEX), run(core, SLOW_REGEX)])
    const busy = answers.find((a) => a.statusCode === 429) as LightMyRequestResponse
    expect(answers.map((a) => a.statusCode).sort()).toEqual([400, 429])
    expect(busy.json().code).toBe('sql_console_busy')
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0)
  })
})

/**
 * Console statements running now: a console statement (the exposed tables' CTEs come first), or the
 * FETCH that reads one from a cursor. Asked on a connection of its own, which no pool can make wait.
 */
async function runningAttacks(monitor: pg.Client) {
  const { rows } = await monitor.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE state = 'active' AND pid <> pg_backend_pid()
       AND (query LIKE 'FETCH FORWARD%' OR query LIKE 'WITH "customers" AS%')`,
  )
  return rows[0]?.n ?? 0
}

describe.skipIf(postgres)('SQL console on the embedded database', () => {
  it('hands back the heap that a huge value grew, by restarting the database thread', async () => {
    const { core } = await sharedOrganisation(ctx)
    const heap = ctx.database.embeddedHeapBytes as () => Promise<number>
    const before = await heap()
    const response = await run(core, "SELECT length(repeat('x', 150000000)) AS n")
    // Answered, or stopped by the watchdog on a slow machine: either way the thread is a new one.
    if (response.statusCode === 200) expect(response.json().data.rows).toEqual([[150_000_000]])
    else expect(response.json().code).toBe('sql_query_stopped')
    expect(await heap()).toBeLessThan(before + 100_000_000)
    expect((await readVehicles(core)).statusCode).toBe(200)
  })
})

describe.runIf(postgres)('SQL console on PostgreSQL', () => {
  it("runs on connections of its own: heavy console queries from many organisations never take the API's", async () => {
    const sessions = await Promise.all(Array.from({ length: 6 }, () => ownerSession(ctx)))
    const other = await sharedOrganisation(ctx, 'another')
    const attacks = sessions.flatMap((s) => [run(s.core, SLOW_REGEX), run(s.core, SLOW_REGEX)])
    // Read once console statements are running, when they hold whatever connections they can take.
    const monitor = new pg.Client({ connectionString: testDatabaseUrl() })
    await monitor.connect()
    try {
      while ((await runningAttacks(monitor)) < 2) await new Promise((r) => setTimeout(r, 20))
    } finally {
      await monitor.end()
    }
    const read = readVehicles(other.core)
    const never = new Promise<never>(() => {})
    const ranToTimeout = Promise.race(attacks.map((a) => a.then((r) => (r.statusCode === 400 ? r : never))))
    // Before, twelve of them held every pool connection and the read waited for one to time out.
    expect(await first({ read, ranToTimeout })).toBe('read')
    expect((await read).statusCode).toBe(200)
    const statuses = (await Promise.all(attacks)).map((a) => a.statusCode)
    // SQL_CONSOLE_CONNECTIONS (2) ran; the rest waited a second and were told to come back.
    expect(statuses.filter((s) => s === 400)).toHaveLength(2)
    expect(statuses.filter((s) => s === 429)).toHaveLength(10)
  }, 120_000)
})
