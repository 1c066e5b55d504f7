import { afterEach, describe, expect, it } from 'vitest'
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
