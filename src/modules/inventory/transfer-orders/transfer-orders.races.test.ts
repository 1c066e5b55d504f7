import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { type TestContext, useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { ledgerOf, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import { createTransfer, daysFromNow, headAndBranch, productPair, ship } from './transfer-orders.fixtures.js'

const ctx = useTestContext()

/**
 * Holds the transfer order's row as a concurrent change would, starts every request, waits until
 * all of them are blocked on that row (so they truly run at once), then lets them go.
 */
async function allAtOnce<T>(ctx: TestContext, schema: string, id: string, requests: (() => Promise<T>)[]) {
  const holder = await ctx.database.db.startTransaction().execute()
  let pending: Promise<T[]> | undefined
  try {
    await sql`UPDATE ${sql.table(`${schema}.transfer_orders`)} SET date_modified = date_modified
              WHERE id = ${id}`.execute(holder)
    pending = Promise.all(requests.map((request) => request()))
    for (let i = 0; ; i++) {
      const { rows } = await sql<{ waiting: string }>`
        SELECT count(*)::text AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND query ILIKE ${`%${schema}%transfer_orders%`}`.execute(ctx.database.db)
      if (Number(rows[0]?.waiting) >= requests.length) break
      if (i > 300) throw new Error('the requests never all waited for the held row')
      await sleep(10)
    }
    await holder.commit().execute()
    return await pending
  } finally {
    if (!holder.isCommitted) {
      await holder.rollback().execute()
      await pending?.catch(() => undefined)
    }
  }
}

describe.skipIf(!testDatabaseUrl())('transfer orders under concurrency (PostgreSQL)', () => {
  it('ships once when shipped twice at once', async () => {
    const { head, headId, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 10, 4, daysFromNow(-5))
    const order = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 6 }],
    })
    const url = `/api/v1/transfer-orders/${order.id}/ship`
    const responses = await allAtOnce(ctx, await schemaOf(ctx, headId), order.id, [
      () => head({ method: 'POST', url, payload: {} }),
      () => head({ method: 'POST', url, payload: {} }),
    ])
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(responses.find((r) => r.statusCode === 409)?.json().code).toBe('invalid_status_transition')
    expect(await stockOf(head, source.id)).toMatchObject({ onHand: 4 })
    const issues = (await ledgerOf(head, source.id)).filter((e) => e.type === 'TransferIssue')
    expect(issues.map((e) => e.quantity)).toEqual([-6])
  })

  it('never receives more than shipped when two receipts arrive at once', async () => {
    const { head, headId, branch, branchId } = await headAndBranch(ctx)
    const { source, destination } = await productPair(head, branch, 10, 4, daysFromNow(-5))
    const order = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 10 }],
    })
    const shipped = await ship(head, order.id)
    const payload = { lines: [{ lineId: shipped.lines[0]!.id, quantity: 6 }] }
    const url = `/api/v1/transfer-orders/${order.id}/receipts`
    const responses = await allAtOnce(ctx, await schemaOf(ctx, headId), order.id, [
      () => branch({ method: 'POST', url, payload }),
      () => branch({ method: 'POST', url, payload }),
    ])
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(responses.find((r) => r.statusCode === 409)?.json().code).toBe('receipt_exceeds_in_transit')
    expect(await stockOf(branch, destination.id)).toMatchObject({ onHand: 6, unitCost: 4 })
    const after = await branch({ method: 'GET', url: `/api/v1/transfer-orders/${order.id}` })
    expect(after.json().data).toMatchObject({
      status: 'PartiallyReceived',
      lines: [{ quantityReceived: 6, quantityInTransit: 4 }],
    })
  })
})
