import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import type { TestContext } from './harness.js'

/**
 * PostgreSQL only. Holds a row as a concurrent change would (an UPDATE that leaves it as it was),
 * starts `request`, waits until the request is blocked on that row, then commits. Returns the
 * request's result and the database clock just before the commit: a change that waited must be
 * stamped after `releasedAt`, whenever its own transaction began.
 */
export async function afterRowLockWait<T>(
  ctx: TestContext,
  row: { schema: string; table: string; id: string },
  request: () => Promise<T>,
): Promise<{ result: T; releasedAt: Date }> {
  const holder = await ctx.database.db.startTransaction().execute()
  let pending: Promise<T> | undefined
  try {
    await sql`UPDATE ${sql.table(`${row.schema}.${row.table}`)} SET date_modified = date_modified
              WHERE id = ${row.id}`.execute(holder)
    const { rows } = await sql<{ xid: string }>`SELECT (txid_current() % 4294967296)::text AS xid`.execute(
      holder,
    )
    pending = request()
    await waitForWaiter(ctx, rows[0]!.xid)
    await sleep(20) // so that a stamp taken when the request's transaction began is clearly earlier
    const clock = await sql<{ at: Date }>`SELECT clock_timestamp() AS at`.execute(holder)
    await holder.commit().execute()
    return { result: await pending, releasedAt: clock.rows[0]!.at }
  } finally {
    if (!holder.isCommitted) {
      await holder.rollback().execute()
      await pending?.catch(() => undefined)
    }
  }
}

/** Until some session waits for transaction `xid`; fails rather than let a test pass without the wait. */
async function waitForWaiter(ctx: TestContext, xid: string) {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql`
      SELECT 1 FROM pg_locks
      WHERE locktype = 'transactionid' AND transactionid::text = ${xid} AND NOT granted`.execute(
      ctx.database.db,
    )
    if (rows.length > 0) return
    await sleep(10)
  }
  throw new Error('the request never waited for the held row')
}
