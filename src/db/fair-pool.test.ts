import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { schemaOf, sharedOrganisation, useSharedOrganisation } from '../../test/fixtures.js'
import { useTestContext } from '../../test/harness.js'
import { testDatabaseUrl } from '../../test/test-database.js'

const ctx = useTestContext()
// Registered before the tests, against the hooks' timeout: the busy one, one that reads, one that writes.
useSharedOrganisation(ctx, 'busy')
useSharedOrganisation(ctx, 'reader')
useSharedOrganisation(ctx, 'writer')
/** Statements one organisation has queued before another's request arrives. */
const BACKLOG = 12

/** A statement of some tens of milliseconds that names `schema`'s table, as the application's do. */
const slowStatement = (schema: string) =>
  sql<{ count: number }>`SELECT count(*)::int AS count FROM generate_series(1, 200000) AS g
    WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(`${schema}.customers`)} WHERE false)`

describe.skipIf(testDatabaseUrl() !== undefined)('the embedded database shared between organisations', () => {
  it("answers another organisation's read before one organisation's backlog is through, and keeps each organisation's order", async () => {
    const busy = await sharedOrganisation(ctx, 'busy')
    const reader = await sharedOrganisation(ctx, 'reader')
    const busySchema = await schemaOf(ctx, busy.org.businessId)
    const created = await reader.core({
      method: 'POST',
      url: '/api/v1/Customers',
      payload: { name: 'Reader' },
    })
    expect(created.statusCode, created.body).toBe(200)
    const url = `/api/v1/Customers/${created.json().data.id}`
    expect((await reader.core({ url })).statusCode).toBe(200)

    const finished: string[] = []
    const backlog = Array.from({ length: BACKLOG }, (_, i) =>
      slowStatement(busySchema)
        .execute(ctx.database.db)
        .then(() => finished.push(`busy ${i}`)),
    )
    const read = reader.core({ url }).then((response) => {
      finished.push('reader')
      return response
    })
    const [response] = await Promise.all([read, ...backlog])
    expect(response.statusCode, response.body).toBe(200)
    // A single queue answered the reader after all twelve; in turns each of its statements waits for one at most.
    expect(finished.indexOf('reader')).toBeLessThan(BACKLOG / 2)
    expect(finished.filter((name) => name !== 'reader')).toEqual(
      Array.from({ length: BACKLOG }, (_, i) => `busy ${i}`),
    )
  })

  it("runs a transaction through once it has its turn, while another organisation's backlog waits", async () => {
    const busy = await sharedOrganisation(ctx, 'busy')
    const writer = await sharedOrganisation(ctx, 'writer')
    const busySchema = await schemaOf(ctx, busy.org.businessId)
    const writerSchema = await schemaOf(ctx, writer.org.businessId)
    const finished: string[] = []
    const backlog = Array.from({ length: BACKLOG }, (_, i) =>
      slowStatement(busySchema)
        .execute(ctx.database.db)
        .then(() => finished.push(`busy ${i}`)),
    )
    // A write through the API (a customer is a transaction with several statements and its audit row).
    const created = writer
      .core({ method: 'POST', url: '/api/v1/Customers', payload: { name: 'Written in turn' } })
      .then((response) => {
        finished.push('writer')
        return response
      })
    // A transaction of several statements of its own, which must never queue behind the backlog once begun.
    const transaction = ctx.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) await slowStatement(writerSchema).execute(trx)
      finished.push('transaction')
    })
    const [response] = await Promise.all([created, transaction, ...backlog])
    expect(response.statusCode, response.body).toBe(200)
    expect(finished.indexOf('writer')).toBeLessThan(BACKLOG)
    expect(finished.indexOf('transaction')).toBeLessThan(BACKLOG / 2)
    const names = await ctx.database.db
      .withSchema(writerSchema)
      .selectFrom('customers')
      .select('name')
      .execute()
    expect(names.map((row) => row.name)).toEqual(['Written in turn'])
  })
})
