import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createApiKey, schemaOf } from '../../test/fixtures.js'
import {
  openTestDatabase,
  registerOrganization,
  signIn,
  type TestContext,
  uniqueEmail,
} from '../../test/harness.js'
import { testDatabaseUrl } from '../../test/test-database.js'
import { loadConfig } from '../config.js'
import { MemoryMailer } from '../mail/mailer.js'
import { unauditedTablesOf } from '../platform/module.js'
import { openCartage } from './cartage.js'
import { EVENT_HANDLERS, MODULES } from './modules.js'

describe('the module list', () => {
  it('names each module once, as its folder under src/modules', () => {
    const names = MODULES.map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) expect(name).toMatch(/^[a-z-]+(\/[a-z-]+)?$/)
  })

  it('gives every event handler a name of its own', () => {
    const names = [...EVENT_HANDLERS.handlers].map(([name]) => name)
    expect(names).toContain('notifications')
    expect(new Set(names).size).toBe(names.length)
  })

  it('leaves out of the audit log the tables the modules declare as histories, counters or derived', () => {
    expect(unauditedTablesOf(MODULES).sort()).toEqual([
      'activity_traces',
      'customer_counts',
      'notifications',
      'stock_checkpoints',
      'stock_ledger',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_events',
    ])
  })

  it('declares each domain event in one module', () => {
    const types = [...EVENT_HANDLERS.declared].map((event) => event.type)
    expect(types).toContain('ShipmentDelivered')
    expect(new Set(types).size).toBe(types.length)
  })
})

describe('a process that serves only the Global API', () => {
  it('still runs every module’s event handlers: a new API key notifies the business', async () => {
    const { database, dataDir, close } = await openTestDatabase()
    const config = {
      // Every injected request comes from one address; the rate-limit tests have their own limits.
      ...loadConfig({ RATE_LIMIT_PER_IP: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' }),
      databaseUrl: testDatabaseUrl(),
      dataDir,
    }
    const globalOnly = await openCartage(config, {
      apis: ['global'],
      database,
      migrate: false,
      mailer: new MemoryMailer(),
    })
    const { global } = globalOnly
    try {
      // The fixtures below only reach the Global API.
      const ctx = { global, database } as TestContext
      const org = await registerOrganization(ctx, uniqueEmail('global-only'))
      const { accessToken } = await signIn(ctx, org)
      await createApiKey(ctx, accessToken, org.businessId, { label: 'warehouse' })
      const { rows } = await sql<{ type: string; title: string }>`
        SELECT entity_type AS type, title FROM ${sql.table(`${await schemaOf(ctx, org.businessId)}.notifications`)}
        WHERE business_id = ${org.businessId}`.execute(database.db)
      expect(rows).toEqual([{ type: 'User', title: expect.stringMatching(/API key/i) }])
    } finally {
      await globalOnly.close()
      await close()
    }
  })
})
