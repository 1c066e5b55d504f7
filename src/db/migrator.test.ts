import { sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../test/harness.js'
import type { Database } from './database.js'
import { newId, shortId } from './ids.js'
import { applyTenantMigrations, migrate, migrationStatus } from './migrator.js'

let database: Database
let closeDatabase: () => Promise<void>
// Its own database: a schema left behind on purpose must not make other files' readiness checks fail.
beforeAll(async () => {
  ;({ database, close: closeDatabase } = await openTestDatabase({ own: true }))
})
afterAll(() => closeDatabase())

describe('migrate', () => {
  it('is idempotent and safe to run concurrently', async () => {
    const reports = await Promise.all([migrate(database), migrate(database), migrate(database)])
    for (const report of reports) expect(report.globalApplied).toEqual([])
    expect(await migrationStatus(database)).toMatchObject({ globalPending: [], tenantSchemasBehind: 0 })
  })

  it('brings an organisation schema that is behind up to date, reporting progress', async () => {
    const schema = `org_${shortId(8)}`
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('global.organizations')
        .values({ id: newId(), slug: `behind-${shortId(4)}`, name: 'Behind', schema_name: schema })
        .execute()
      await applyTenantMigrations(
        trx as unknown as Transaction<unknown>,
        schema,
        database.migrations.tenant.slice(0, 1),
      )
    })
    expect((await migrationStatus(database)).tenantSchemasBehind).toBeGreaterThanOrEqual(1)
    const progress: [number, number][] = []
    const report = await migrate(database, (done, total) => progress.push([done, total]))
    expect(report.tenantSchemasMigrated).toBeGreaterThanOrEqual(1)
    expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1])
    expect((await migrationStatus(database)).tenantSchemasBehind).toBe(0)
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM global.tenant_migrations WHERE schema_name = ${schema}`.execute(
      database.db,
    )
    expect(rows[0]?.n).toBe(database.migrations.tenant.length)
    // The later migrations' tables now exist in that schema.
    await expect(
      database.db.withSchema(schema).selectFrom('customers').select('id').execute(),
    ).resolves.toEqual([])
  })

  it('refuses a schema name it did not generate', async () => {
    await expect(
      database.db
        .transaction()
        .execute((trx) =>
          applyTenantMigrations(
            trx as unknown as Transaction<unknown>,
            'public; drop table x',
            database.migrations.tenant,
          ),
        ),
    ).rejects.toThrow(/unsafe schema name/)
  })
})

describe('database layer', () => {
  it('keeps the event loop responsive while a slow query runs', async () => {
    const slow = sql`SELECT pg_sleep(0.6)`.execute(database.db)
    const lags: number[] = []
    const started = Date.now()
    while (Date.now() - started < 500) {
      const before = performance.now()
      await new Promise((resolve) => setTimeout(resolve, 10))
      lags.push(performance.now() - before - 10)
    }
    await slow
    expect(Math.max(...lags)).toBeLessThan(200)
  })
})
