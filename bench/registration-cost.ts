/**
 * Where registering an organisation spends its time: the whole registration through the service,
 * and its parts alone (the tenant migrations' DDL, the audit triggers, the rows), on the embedded
 * database or on PostgreSQL (DATABASE_URL). Wall time and this process's CPU (which includes the
 * embedded database's thread).
 *
 *   npx tsx bench/registration-cost.ts [count]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql, type Transaction } from 'kysely'
import { MIGRATIONS } from '../src/apps/modules.js'
import { openDatabase } from '../src/db/database.js'
import { shortId } from '../src/db/ids.js'
import { applyTenantMigrations, migrate } from '../src/db/migrator.js'
import { registerOrganization } from '../src/modules/identity/registration/registration.service.js'
import { useTestPasswordHashing } from '../src/security/passwords.js'

const count = Number(process.argv[2] ?? 20)
// The registration's own work, not argon2id's (a test suite's registrations hash at the cheapest cost).
useTestPasswordHashing()
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-registration-'))
const database = await openDatabase({
  migrations: MIGRATIONS,
  databaseUrl: process.env.DATABASE_URL,
  dataDir,
  poolSize: 2,
})

async function measure(label: string, run: (i: number) => Promise<void>) {
  await run(-1) // warm: plans, code paths
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < count; i++) await run(i)
  const wall = (performance.now() - started) / count
  const used = process.cpuUsage(cpu)
  const cpuMs = (used.user + used.system) / 1000 / count
  console.log(
    `${label.padEnd(44)} ${wall.toFixed(1).padStart(7)} ms wall ${cpuMs.toFixed(1).padStart(7)} ms CPU`,
  )
}

try {
  await migrate(database)
  const tenant = database.migrations.tenant
  const after = database.migrations.afterTenant ?? []
  console.log(`${tenant.length} tenant migrations, ${after.length} after-tenant steps, ${count} runs each`)

  const rolledBack = async (work: (trx: Transaction<unknown>) => Promise<void>) => {
    await database.db
      .transaction()
      .execute(async (trx) => {
        await work(trx as unknown as Transaction<unknown>)
        throw new Error('rollback')
      })
      .catch((error: Error) => {
        if (error.message !== 'rollback') throw error
      })
  }

  await measure('registration (service, test password hashing)', async () => {
    await registerOrganization(database, {
      business: { registeredName: `Bench ${shortId(4)}`, displayName: 'Bench' },
      user: {
        firstName: 'A',
        lastName: 'B',
        email: `bench-${shortId(8)}@example.com`,
        password: 'correct-horse-battery',
        confirmPassword: 'correct-horse-battery',
        acceptedTerms: true,
      },
    } as Parameters<typeof registerOrganization>[1])
  })
  await measure('schema: tenant migrations + triggers (rolled back)', (i) =>
    rolledBack((trx) => applyTenantMigrations(trx, `org_bench${i + 1}x${shortId(6)}`, tenant, after)),
  )
  await measure('schema: tenant migrations only (rolled back)', (i) =>
    rolledBack((trx) => applyTenantMigrations(trx, `org_bench${i + 1}x${shortId(6)}`, tenant, [])),
  )
  await measure('schema: tenant DDL as one string (rolled back)', (i) =>
    rolledBack(async (trx) => {
      const schema = `org_bench${i + 1}x${shortId(6)}`
      await sql
        .raw(
          `CREATE SCHEMA ${schema}; SET LOCAL search_path TO ${schema}; ${tenant.map((m) => m.sql).join(';\n')}`,
        )
        .execute(trx)
    }),
  )
  await measure('empty transaction (rolled back)', () => rolledBack(async () => {}))
} finally {
  await database.close()
  rmSync(dataDir, { recursive: true, force: true })
}
