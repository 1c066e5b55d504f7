import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../test/harness.js'
import { testDatabaseUrl } from '../../test/test-database.js'
import { LanePool } from './lane-pool.js'
import {
  forgetPrepared,
  PREPARED_PER_CONNECTION,
  registerPrepared,
  usePreparedStatements,
} from './prepared.js'

let pool: LanePool | undefined
afterEach(async () => {
  await pool?.end()
  pool = undefined
})

const textOf = (n: number) => `SELECT $1::int + ${n} AS v /* prepared-test */`

describe.runIf(testDatabaseUrl())('prepared statements per connection (PostgreSQL)', () => {
  it('keeps the most recently used ones, deallocates the oldest, and re-prepares an evicted text on demand', async () => {
    pool = new LanePool({ connectionString: testDatabaseUrl() }, 1)
    pool.on('error', () => {})
    usePreparedStatements(pool)
    const client = await pool.connect()
    const texts = Array.from({ length: PREPARED_PER_CONNECTION + 10 }, (_, n) => textOf(n))
    try {
      for (const text of texts) registerPrepared(text)
      for (const [n, text] of texts.entries())
        expect((await client.query<{ v: number }>(text, [1])).rows[0]?.v).toBe(n + 1)
      const kept = async () =>
        (
          await client.query<{ statement: string }>(
            `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared-test%' AND name LIKE 'cartage_p%'`,
          )
        ).rows.map((row) => row.statement)
      const before = await kept()
      expect(before.length).toBe(PREPARED_PER_CONNECTION)
      expect(before).not.toContain(textOf(0))
      expect(before).toContain(textOf(PREPARED_PER_CONNECTION + 9))
      // The first text was evicted; it runs again (prepared anew) and the least recent goes instead.
      expect((await client.query<{ v: number }>(textOf(0), [5])).rows[0]?.v).toBe(5)
      const after = await kept()
      expect(after.length).toBe(PREPARED_PER_CONNECTION)
      expect(after).toContain(textOf(0))
      expect(after).not.toContain(textOf(10))
      // A forgotten text runs unnamed.
      forgetPrepared(textOf(1))
      expect((await client.query<{ v: number }>(textOf(1), [1])).rows[0]?.v).toBe(2)
    } finally {
      client.release()
      for (const text of texts) forgetPrepared(text)
    }
  })
})

describe.skipIf(testDatabaseUrl() !== undefined)('prepared statements on the embedded database', () => {
  it('keep working when the pool opens a new connection to the one PGlite session', async () => {
    const { database, close } = await openTestDatabase({ own: true })
    const text = textOf(1000)
    registerPrepared(text)
    // As Kysely runs a statement: on a checked-out connection, without a callback.
    const run = async () => {
      const client = await database.pool.connect()
      try {
        return (await client.query<{ v: number }>(text, [1])).rows[0]?.v
      } finally {
        client.release()
      }
    }
    try {
      expect(await run()).toBe(1001)
      // The one connection stays open however long it idles...
      expect(
        (database.pool as unknown as { options: { idleTimeoutMillis: number } }).options.idleTimeoutMillis,
      ).toBe(0)
      // ...and when it is lost anyway, the new one meets the old one's statements in the session.
      const client = await database.pool.connect()
      client.release(true)
      expect(await run()).toBe(1001)
      const names = await database.pool.query<{ name: string }>(
        `SELECT name FROM pg_prepared_statements WHERE statement = $1 ORDER BY name`,
        [text],
      )
      expect(names.rows).toHaveLength(2)
    } finally {
      forgetPrepared(text)
      await close()
    }
  })
})
