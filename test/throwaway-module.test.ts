import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCoreApp } from '../src/apps/core/app.js'
import { buildGlobalApp } from '../src/apps/global/app.js'
import { MODULES } from '../src/apps/modules.js'
import { loadConfig } from '../src/config.js'
import { BASELINE_MIGRATIONS } from '../src/db/migrations/baseline.js'
import { MemoryMailer } from '../src/mail/mailer.js'
import { createEndpoint } from '../src/modules/integrations/webhooks/webhooks.fixtures.js'
import { eventWiringOf, migrationsOf } from '../src/platform/module.js'
import { createServices } from '../src/platform/services.js'
import { schemaOf } from './fixtures.js'
import { openTestDatabase, ownerSession, type TestContext } from './harness.js'
import { testDatabaseUrl } from './test-database.js'
import { crateRounds, cratesModule } from './throwaway-module/crates.module.js'

/**
 * A module is its folder plus one line in the module list: a module of the tests' own
 * (test/throwaway-module/), added to the list here, brings its table, route, console view, event
 * and periodic task, and each reaches the SQL console, notifications, webhooks, the audit log, the
 * OpenAPI document and the served process, though no other file names it.
 */
const modules = [...MODULES, cratesModule]
const ctx = {} as TestContext

beforeAll(async () => {
  const opened = await openTestDatabase({ own: true })
  // The same database, brought up to the module list with the crates.
  const database = { ...opened.database, migrations: migrationsOf(BASELINE_MIGRATIONS, modules) }
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' }),
    databaseUrl: testDatabaseUrl(),
    dataDir: opened.dataDir,
  }
  const mailer = new MemoryMailer()
  const services = await createServices(config, database, false, {
    eventHandlers: eventWiringOf(modules),
    mailer,
  })
  const deps = { config, database, services }
  const core = await buildCoreApp(deps, false, { workers: true }, modules)
  const global = await buildGlobalApp(deps, false)
  const waiting =
    crateRounds.count > 0 ? Promise.resolve() : new Promise<void>((r) => crateRounds.waiting.push(r))
  await core.ready()
  await waiting
  Object.assign(ctx, {
    core,
    global,
    database,
    services,
    mailer,
    dataDir: opened.dataDir,
    async close() {
      await Promise.all([core.close(), global.close()])
      await services.close()
      await opened.close()
    },
  })
})
afterAll(() => ctx.close())

describe('a module added to the module list, declared in its own folder only', () => {
  it('runs its periodic task in the served process', () => {
    expect(crateRounds.count).toBeGreaterThan(0)
  })

  it('serves its route, publishes its event to notifications and webhooks, and is audited and queryable', async () => {
    const { core, org } = await ownerSession(ctx)
    await createEndpoint(ctx, core, { url: 'https://hooks.example.com/crates', eventTypes: ['crate.sealed'] })
    const sealed = await core({ method: 'POST', url: '/api/v1/crates', payload: { label: 'C-7' } })
    expect(sealed.statusCode, sealed.body).toBe(200)
    const crateId = sealed.json().data.id as string

    const notifications = (await core({ url: '/api/notifications/user' })).json().data as {
      title: string
      message: string
    }[]
    expect(notifications).toContainEqual(
      expect.objectContaining({ title: 'Crate sealed', message: 'Crate C-7 was sealed.' }),
    )

    const events = (await core({ url: '/api/v1/webhooks/events' })).json().data as unknown[]
    expect(events).toEqual([
      expect.objectContaining({
        type: 'crate.sealed',
        resource: `crateId:${crateId}`,
        data: { businessId: org.businessId, crateId, label: 'C-7' },
      }),
    ])
    const schema = await schemaOf(ctx, org.businessId)

    const audit = (await core({ url: '/api/v1/audit-log?entityType=Crate&$orderby=occurredAt asc' })).json()
      .data as { entityId: string; action: string; payload: unknown }[]
    // The row's change (its trigger) and the event (with the payload its webhook carries).
    expect(audit).toEqual([
      expect.objectContaining({ entityId: crateId, action: 'Created', payload: null }),
      expect.objectContaining({
        entityId: crateId,
        action: 'CrateSealed',
        payload: { crateId, label: 'C-7' },
      }),
    ])
    const { rows: unaudited } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND c.relname = 'crate_seals_seen' AND t.tgname = 'audit_row_change'`.execute(
      ctx.database.db,
    )
    expect(unaudited).toEqual([{ n: 0 }])

    const query = await core({
      method: 'POST',
      url: '/api/ai-studio/query',
      payload: { query: 'SELECT label FROM crates' },
    })
    expect(query.statusCode, query.body).toBe(200)
    expect(query.json().data.rows).toEqual([['C-7']])
    const tables = (await core({ url: '/api/ai-studio/schema' })).json().data.tables as { name: string }[]
    expect(tables.map((t) => t.name)).toContain('crates')
  })

  it('is documented: its operation, and its webhook with the event payload', async () => {
    const document = (await ctx.core.inject({ url: '/openapi.json' })).json()
    expect(document.paths['/api/v1/crates']?.post?.operationId).toBe('SealCrate')
    expect(document.webhooks['crate.sealed']?.post?.summary).toBe('A crate was sealed.')
    expect(document.components.schemas.CrateSealedWebhookData.required).toEqual([
      'businessId',
      'crateId',
      'label',
    ])
  })
})
