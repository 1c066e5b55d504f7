import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Cartage, openCartage } from '../../src/apps/cartage.js'
import { loadConfig } from '../../src/config.js'
import type { HttpApp } from '../../src/http/kernel.js'
import { MemoryMailer } from '../../src/mail/mailer.js'
import { createApiKey, organizationIdOf, sleep } from '../fixtures.js'
import { ownerSession, useTestContext } from '../harness.js'
import { testDatabaseUrl } from '../test-database.js'

const ctx = useTestContext()
const onPostgres = () => process.env.CARTAGE_TEST_DATABASE === 'postgres'

/** A second process: its own services (and so its own key cache and listener) over the same database. */
let other: Cartage<'core'>
beforeAll(async () => {
  const config = { ...loadConfig({}), dataDir: ctx.dataDir }
  other = await openCartage(config, {
    apis: ['core'],
    database: ctx.database,
    migrate: false,
    mailer: new MemoryMailer(),
  })
})
afterAll(() => other.close())

const myBusiness = (app: HttpApp, key: string) =>
  app.inject({ url: '/api/business/my-business', headers: { 'x-dispatch-api-key': key } })
const statusOn = async (key: string) => [
  (await myBusiness(ctx.core, key)).statusCode,
  (await myBusiness(other.core, key)).statusCode,
]

/** Reads until both processes hold the key in their caches (the listener starts on first use). */
async function cachedEverywhere(key: string) {
  for (let i = 0; i < 100; i++) {
    expect(await statusOn(key)).toEqual([200, 200])
    if (ctx.services.authenticator.cachedApiKeys > 0 && other.services.authenticator.cachedApiKeys > 0) return
    await sleep(20)
  }
  throw new Error('the API key was never cached')
}

async function keyOfNewOwner() {
  const { org, signedIn } = await ownerSession(ctx)
  const key = await createApiKey(ctx, signedIn.accessToken, org.businessId)
  return { org, key, organizationId: await organizationIdOf(ctx, org.businessId) }
}

describe('API keys cached per process', () => {
  it('are refused at once on every process when revoked by any writer', async () => {
    const { key } = await keyOfNewOwner()
    await cachedEverywhere(key)
    // Straight in SQL, as any process or an operator would: the trigger tells every listener.
    await sql`update global.api_keys set revoked_at = now() where key_prefix = ${key.slice(0, 12)}`.execute(
      ctx.database.db,
    )
    expect(await statusOn(key)).toEqual([401, 401])
  })

  it('follow a change of the creator’s membership at once on every process', async () => {
    const { key, organizationId } = await keyOfNewOwner()
    await cachedEverywhere(key)
    await sql`update global.memberships set status = 'Suspended' where organization_id = ${organizationId}`.execute(
      ctx.database.db,
    )
    expect(await statusOn(key)).toEqual([401, 401])
  })

  it('follow a change of the creator’s custom role at once on every process', async () => {
    const { key, organizationId } = await keyOfNewOwner()
    const role = crypto.randomUUID()
    await sql`insert into global.roles (id, organization_id, name, permissions)
      values (${role}, ${organizationId}, 'Reader', '{"Settings": 1}')`.execute(ctx.database.db)
    await sql`update global.memberships set role = 'Custom', custom_role_id = ${role}
      where organization_id = ${organizationId}`.execute(ctx.database.db)
    await cachedEverywhere(key)
    await sql`update global.roles set permissions = '{}' where id = ${role}`.execute(ctx.database.db)
    expect(await statusOn(key)).toEqual([403, 403])
  })

  it.runIf(onPostgres())(
    'are forgotten, and not trusted, while the listening connection is down',
    async () => {
      const { key } = await keyOfNewOwner()
      await cachedEverywhere(key)
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name like '%-listener' and datname = current_database()`.execute(ctx.database.db)
      const cached = () =>
        ctx.services.authenticator.cachedApiKeys + other.services.authenticator.cachedApiKeys
      for (let i = 0; i < 300 && cached() > 0; i++) await sleep(10)
      expect(ctx.services.authenticator.cachedApiKeys).toBe(0)
      expect(other.services.authenticator.cachedApiKeys).toBe(0)
      // A revocation no listener hears (triggers off for this one transaction): only a fresh read sees it.
      await ctx.database.db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx)
        await sql`update global.api_keys set revoked_at = now() where key_prefix = ${key.slice(0, 12)}`.execute(
          trx,
        )
      })
      expect(await statusOn(key)).toEqual([401, 401])
    },
  )
})

describe('session states trusted per process until a change', () => {
  const meAs = (app: HttpApp, token: string, businessId: string) =>
    app.inject({
      url: '/api/business/my-business',
      headers: { authorization: `Bearer ${token}`, 'x-business-id': businessId },
    })

  it('are trusted until a change, and refused at once on every process when the session ends', async () => {
    const { org, signedIn } = await ownerSession(ctx)
    const statuses = async () => [
      (await meAs(ctx.core, signedIn.accessToken, org.businessId)).statusCode,
      (await meAs(other.core, signedIn.accessToken, org.businessId)).statusCode,
    ]
    const trusted = () =>
      ctx.services.authenticator.trustedBearerStates > 0 &&
      other.services.authenticator.trustedBearerStates > 0
    for (let i = 0; i < 100 && !trusted(); i++) {
      expect(await statuses()).toEqual([200, 200])
      await sleep(20)
    }
    expect(trusted()).toBe(true)
    // Straight in SQL, as an operator would: the trigger tells every listener.
    await sql`update global.sessions set revoked_at = now() where user_id = ${org.userId}`.execute(
      ctx.database.db,
    )
    expect(await statuses()).toEqual([401, 401])
  })
})

describe.runIf(onPostgres())('API keys cached in a process with its own connections', () => {
  let separate: Cartage<'core'> & { url: string }
  beforeAll(async () => {
    // Another process of the same deployment: its own connections, the same data directory.
    const config = {
      ...loadConfig({ DATABASE_URL: process.env.DATABASE_URL ?? '' }),
      databaseUrl: testDatabaseUrl(),
      dataDir: ctx.dataDir,
    }
    const opened = await openCartage(config, {
      apis: ['core'],
      poolSize: 4,
      applicationName: 'cartage-second-process',
      migrate: false,
      mailer: new MemoryMailer(),
    })
    separate = { ...opened, url: await opened.core.listen({ port: 0, host: '127.0.0.1' }) }
  })
  afterAll(() => separate.close())

  it('refuses a key revoked through the API within the notification delay', async () => {
    const { org, signedIn } = await ownerSession(ctx)
    for (let round = 0; round < 10; round++) {
      const key = await createApiKey(ctx, signedIn.accessToken, org.businessId)
      for (let i = 0; i < 100 && separate.services.authenticator.cachedApiKeys === 0; i++) {
        expect((await myBusiness(separate.core, key)).statusCode).toBe(200)
        await sleep(10)
      }
      expect(separate.services.authenticator.cachedApiKeys).toBeGreaterThan(0)
      const id = (
        await ctx.global.inject({
          url: '/api/auth/tokens',
          headers: { authorization: `Bearer ${signedIn.accessToken}` },
        })
      ).json().data[0].id
      const revoked = await ctx.global.inject({
        method: 'DELETE',
        url: `/api/auth/tokens/${id}`,
        headers: { authorization: `Bearer ${signedIn.accessToken}` },
      })
      expect(revoked.statusCode).toBe(200)
      // Over real HTTP, as a client of another process would ask. The other process hears of the
      // revocation by NOTIFY, which PostgreSQL sends at commit: normally before the next request
      // arrives, on a badly overloaded machine a few milliseconds later. Allow 100 ms, no more.
      const started = Date.now()
      let status = 0
      do {
        status = (
          await fetch(`${separate.url}/api/business/my-business`, { headers: { 'x-dispatch-api-key': key } })
        ).status
      } while (status === 200 && Date.now() - started < 100)
      expect(status).toBe(401)
    }
  })
})
