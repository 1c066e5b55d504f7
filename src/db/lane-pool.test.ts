import { CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { testDatabaseUrl } from '../../test/test-database.js'
import { HOME_LANES, LanePool, SPILL_AFTER_WAITING, withSchemaAffinity } from './lane-pool.js'

const pools: LanePool[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()))
})

function lanePool(size: number): LanePool {
  const pool = new LanePool({ connectionString: testDatabaseUrl() }, size)
  pool.on('error', () => {})
  pools.push(pool)
  return pool
}

const backendPid = async (pool: LanePool, schema?: string): Promise<number> => {
  const run = () => pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
  const { rows } = await (schema === undefined ? run() : withSchemaAffinity(schema, run))
  return rows[0]?.pid as number
}

/** Schema names whose first home lanes differ, found by trying names. */
function schemasOnDistinctLanes(pool: LanePool, count: number): string[] {
  const byLane = new Map<number, string>()
  for (let i = 0; byLane.size < count; i++) {
    const name = `org_lanetest${i}`
    const first = pool.homeLanes(name)[0] as number
    if (!byLane.has(first)) byLane.set(first, name)
  }
  return [...byLane.values()]
}

/** Opens every lane's connection, so "free" means idle rather than not yet opened. */
async function openAll(pool: LanePool, size: number) {
  const held = await Promise.all(Array.from({ length: size }, () => pool.connect()))
  for (const client of held) client.release()
}

const pidOf = async (client: pg.PoolClient): Promise<number> =>
  (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number

describe.runIf(testDatabaseUrl())('the lane pool (PostgreSQL)', () => {
  it('sends a schema to its home connection whenever that connection is free', async () => {
    const pool = lanePool(4)
    // Open every lane's connection first, so "free" means idle rather than not yet opened.
    const held = await Promise.all([0, 1, 2, 3].map(() => pool.connect()))
    for (const client of held) client.release()
    const [a, b, c] = schemasOnDistinctLanes(pool, 3) as [string, string, string]
    const pidA = await backendPid(pool, a)
    const pidB = await backendPid(pool, b)
    const pidC = await backendPid(pool, c)
    expect(new Set([pidA, pidB, pidC]).size).toBe(3)
    for (let i = 0; i < 5; i++) {
      expect(await backendPid(pool, b)).toBe(pidB)
      expect(await backendPid(pool, a)).toBe(pidA)
      expect(await backendPid(pool, c)).toBe(pidC)
    }
  })

  it('gets the schema through Kysely, as db/schema-statements.ts sends it (the call chain stays synchronous)', async () => {
    const pool = lanePool(4)
    const held = await Promise.all([0, 1, 2, 3].map(() => pool.connect()))
    for (const client of held) client.release()
    const db = new Kysely<Record<string, never>>({
      dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }),
    })
    const pid = async (schema: string) =>
      (
        await withSchemaAffinity(schema, () =>
          db.executeQuery<{ pid: number }>(CompiledQuery.raw('SELECT pg_backend_pid() AS pid')),
        )
      ).rows[0]?.pid
    const [a, b] = schemasOnDistinctLanes(pool, 2) as [string, string]
    await pid(a) // Kysely's driver initialises on its first statement (an await before connect).
    const home = { a: await backendPid(pool, a), b: await backendPid(pool, b) }
    expect(home.a).not.toBe(home.b)
    for (let i = 0; i < 5; i++) {
      expect(await pid(a)).toBe(home.a)
      expect(await pid(b)).toBe(home.b)
    }
  })

  it('serves a schema from its other home while the first is busy, never opening more than its size', async () => {
    const pool = lanePool(3)
    const [a] = schemasOnDistinctLanes(pool, 1) as [string]
    const home = await withSchemaAffinity(a, () => pool.connect())
    const homePid = (await home.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid
    const elsewhere = await backendPid(pool, a)
    expect(elsewhere).not.toBe(homePid)
    home.release()
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => backendPid(pool, i % 2 ? a : undefined)),
    )
    expect(results.every((pid) => typeof pid === 'number')).toBe(true)
    expect(pool.totalCount).toBeLessThanOrEqual(3)
    expect(pool.options.max).toBe(3)
  })

  it('keeps each organisation on its two home connections under round-robin statements, the load spread over all', async () => {
    // Why it matters: a backend plans in a schema new to it from the catalogues (milliseconds), so
    // the fewer backends see each schema, the less of that work there is after every cache reset.
    const size = 5
    const pool = lanePool(size)
    await openAll(pool, size)
    const schemas = Array.from({ length: 40 }, (_, i) => `org_roundrobin${i}`)
    const seen = new Map<string, Set<number>>(schemas.map((schema) => [schema, new Set()]))
    let turn = 0
    // As many in flight as connections: both homes then never hold SPILL_AFTER_WAITING waiters each.
    await Promise.all(
      Array.from({ length: size }, async () => {
        while (turn < 400) {
          const schema = schemas[turn++ % schemas.length] as string
          seen.get(schema)?.add(await backendPid(pool, schema))
        }
      }),
    )
    for (const pids of seen.values()) expect(pids.size).toBeLessThanOrEqual(HOME_LANES)
    expect(new Set([...seen.values()].flatMap((pids) => [...pids])).size).toBe(size)
  })

  it('waits for a busy home rather than take a free connection, until statements queue there', async () => {
    const size = 4
    const pool = lanePool(size)
    await openAll(pool, size)
    const [a] = schemasOnDistinctLanes(pool, 1) as [string]
    const homes = [
      await withSchemaAffinity(a, () => pool.connect()),
      await withSchemaAffinity(a, () => pool.connect()),
    ]
    const homePids = await Promise.all(homes.map(pidOf))
    // Both homes busy: the next statements wait for them, SPILL_AFTER_WAITING on each.
    const waiting = Array.from({ length: HOME_LANES * SPILL_AFTER_WAITING }, () => backendPid(pool, a))
    // With that many queued, one more takes a free connection and answers while the homes are held.
    const spilled = await backendPid(pool, a)
    expect(homePids).not.toContain(spilled)
    for (const client of homes) client.release()
    for (const pid of await Promise.all(waiting)) expect(homePids).toContain(pid)
  })

  it('keeps a connection after a refused statement, and replaces one that broke', async () => {
    const pool = lanePool(1)
    const first = await backendPid(pool)
    await expect(pool.query('SELECT 1/0')).rejects.toMatchObject({ code: '22012' })
    expect(await backendPid(pool)).toBe(first)
    const killer = lanePool(1)
    await killer.query('SELECT pg_terminate_backend($1)', [first])
    // The first use may fail on the dead connection (or the pool may have dropped it already).
    await pool.query('SELECT 1').catch(() => undefined)
    const next = await backendPid(pool)
    expect(next).not.toBe(first)
  })

  it('emits connect for every new connection, as pg.Pool does (prepared statements and listeners hang on it)', async () => {
    const pool = lanePool(2)
    const seen: pg.PoolClient[] = []
    pool.on('connect', (client: pg.PoolClient) => seen.push(client))
    const clients = await Promise.all([pool.connect(), pool.connect()])
    for (const client of clients) client.release()
    expect(seen.length).toBe(2)
    expect(pool._clients.length).toBe(2)
  })
})
