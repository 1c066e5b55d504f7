import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Cartage, openCartage } from '../../src/apps/cartage.js'
import { type ConfigError, loadConfig } from '../../src/config.js'
import { settlePreparedWrites } from '../../src/db/clusters.js'
import { migrate, migrationStatus } from '../../src/db/migrator.js'
import { moveOrganisation } from '../../src/db/move-organisation.js'
import { MemoryMailer } from '../../src/mail/mailer.js'
import {
  type Core,
  coreAs,
  type RegisteredOrganization,
  registerOrganization,
  registrationBody,
  signIn,
  type TestContext,
} from '../harness.js'
import { canRunOwnPostgres, type OwnPostgres, startOwnPostgres } from '../own-postgres.js'

const onPostgres = process.env.CARTAGE_TEST_DATABASE === 'postgres'

describe('DATABASE_CLUSTERS and DATABASE_PLACEMENT', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env)
      return []
    } catch (error) {
      return (error as ConfigError).problems
    }
  }
  it('refuses a bad list or placement, naming the setting', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/postgres'
    expect(problems({ DATABASE_URL: url, DATABASE_CLUSTERS: 'east' }).join()).toMatch(/^DATABASE_CLUSTERS:/)
    expect(problems({ DATABASE_URL: url, DATABASE_CLUSTERS: 'main=postgres://x/y' }).join()).toMatch(
      /^DATABASE_CLUSTERS:/,
    )
    expect(problems({ DATABASE_CLUSTERS: `east=${url}` }).join()).toMatch(
      /^DATABASE_CLUSTERS: needs DATABASE_URL/,
    )
    expect(
      problems({ DATABASE_URL: url, DATABASE_CLUSTERS: `east=${url}`, DATABASE_PLACEMENT: 'west' }).join(),
    ).toMatch(/^DATABASE_PLACEMENT=/)
    const config = loadConfig({
      DATABASE_URL: url,
      DATABASE_CLUSTERS: `east=${url}`,
      DATABASE_PLACEMENT: 'east',
    })
    expect(config.databaseClusters).toEqual([{ name: 'east', url }])
    expect(config.databasePlacement).toEqual({ kind: 'named', cluster: 'east' })
  })
})

// Two PostgreSQL servers of the test's own: `main` (DATABASE_URL, the global schema) and `east`
// (DATABASE_CLUSTERS). Organisations are spread over both, each works end to end through the one
// process, none reaches another's data, and migrations reach both servers.
describe.runIf(onPostgres && canRunOwnPostgres)('organisations across clusters (DATABASE_CLUSTERS)', () => {
  let main: OwnPostgres
  let east: OwnPostgres
  let ctx: TestContext
  let second: Cartage<'global'>
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-clusters-'))
  const orgs: (RegisteredOrganization & {
    core: Core
    accessToken: string
    schema: string
    cluster: string
  })[] = []

  const query = async <T extends pg.QueryResultRow>(
    server: OwnPostgres,
    text: string,
    values: unknown[] = [],
  ) => {
    const client = new pg.Client({ connectionString: server.url })
    await client.connect()
    try {
      return (await client.query<T>(text, values)).rows
    } finally {
      await client.end()
    }
  }
  const placementOf = async (businessId: string) => {
    const rows = await query<{ schema_name: string; cluster: string }>(
      main,
      `SELECT o.schema_name, o.cluster FROM global.organizations o
       JOIN global.businesses b ON b.organization_id = o.id WHERE b.id = $1`,
      [businessId],
    )
    return rows[0] as { schema_name: string; cluster: string }
  }
  const schemasOn = async (server: OwnPostgres) =>
    (
      await query<{ nspname: string }>(
        server,
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'org\\_%'",
      )
    ).map((r) => r.nspname)

  beforeAll(async () => {
    // East prepares the organisation's part of a write that spans both (globalAndOrganisation).
    ;[main, east] = await Promise.all([
      startOwnPostgres(),
      startOwnPostgres({ max_prepared_transactions: '20' }),
    ])
    const env = { RATE_LIMIT_PER_IP: '100000', DATABASE_URL: main.url, DATABASE_CLUSTERS: `east=${east.url}` }
    const mailer = new MemoryMailer()
    const cartage = await openCartage({ ...loadConfig(env), dataDir }, { mailer, poolSize: 3 })
    ctx = { dataDir, mailer, ...cartage }
    // A second process placing every organisation on `east` (DATABASE_PLACEMENT).
    second = await openCartage(
      { ...loadConfig({ ...env, DATABASE_PLACEMENT: 'east' }), dataDir },
      { mailer, poolSize: 2, apis: ['global'] },
    )
  }, 180_000)
  afterAll(async () => {
    await second?.close()
    await ctx?.close()
    await Promise.all([main?.destroy(), east?.destroy()])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('places new organisations on the cluster with the fewest, each schema on its own server', async () => {
    for (let i = 0; i < 4; i++) {
      const org = await registerOrganization(ctx)
      const session = await signIn(ctx, org)
      const placed = await placementOf(org.businessId)
      orgs.push({
        ...org,
        core: coreAs(ctx, { accessToken: session.accessToken, businessId: org.businessId }),
        accessToken: session.accessToken,
        schema: placed.schema_name,
        cluster: placed.cluster,
      })
    }
    // Fewest first, main on a tie: main, east, main, east.
    expect(orgs.map((o) => o.cluster)).toEqual(['main', 'east', 'main', 'east'])
    const [onMain, onEast] = await Promise.all([schemasOn(main), schemasOn(east)])
    for (const org of orgs) {
      expect(onMain.includes(org.schema)).toBe(org.cluster === 'main')
      expect(onEast.includes(org.schema)).toBe(org.cluster === 'east')
    }
  })

  it('serves each organisation from its cluster: customers created and listed, and no other organisation sees them', async () => {
    for (const [i, org] of orgs.entries()) {
      const created = await org.core({
        method: 'POST',
        url: '/api/v1/customers',
        payload: { name: `Customer of ${i} on ${org.cluster}`, type: 'Company' },
      })
      expect(created.statusCode, created.body).toBe(200)
    }
    const ids: string[] = []
    for (const [i, org] of orgs.entries()) {
      const listed = await org.core({ method: 'GET', url: '/api/v1/customers' })
      expect(listed.statusCode, listed.body).toBe(200)
      const names = (listed.json().data as { id: string; name: string }[]).map((c) => c.name)
      expect(names).toEqual([`Customer of ${i} on ${org.cluster}`])
      ids.push((listed.json().data as { id: string }[])[0]?.id as string)
    }
    // The row is on its organisation's server only.
    const east0 = orgs[1] as (typeof orgs)[number]
    const rows = await query<{ name: string }>(east, `SELECT name FROM ${east0.schema}.customers`)
    expect(rows.map((r) => r.name)).toEqual(['Customer of 1 on east'])
    // Another organisation's customer, on either cluster, is not found; another's business is refused.
    const [a, b] = orgs as [(typeof orgs)[number], (typeof orgs)[number]]
    expect((await a.core({ method: 'GET', url: `/api/v1/customers/${ids[1]}` })).statusCode).toBe(404)
    expect((await b.core({ method: 'GET', url: `/api/v1/customers/${ids[0]}` })).statusCode).toBe(404)
    const crossed = await a.core({
      method: 'GET',
      url: '/api/v1/customers',
      headers: { 'x-business-id': b.businessId },
    })
    expect(crossed.statusCode).toBe(401)
    expect(crossed.json().code).toBe('business_not_accessible')
  })

  it('serves the features that read global rows beside the organisation’s for an organisation on east', async () => {
    const org = orgs[1] as (typeof orgs)[number]
    expect(org.cluster).toBe('east')
    const ok = async (response: Promise<{ statusCode: number; body: string; json(): unknown }>) => {
      const answered = await response
      expect(answered.statusCode, answered.body).toBe(200)
      return (answered.json() as { data: unknown }).data
    }
    // Customer traces: the recorder's name comes from the global users.
    const customer = (await ok(
      org.core({ method: 'POST', url: '/api/v1/customers', payload: { name: 'Traced', type: 'Company' } }),
    )) as { id: string }
    await ok(
      org.core({
        method: 'POST',
        url: `/api/v1/customers/${customer.id}/traces`,
        payload: { type: 'Call', note: 'Rang them' },
      }),
    )
    const traces = (await ok(org.core({ url: `/api/v1/customers/${customer.id}/traces` }))) as {
      type: string
      createdBy: { displayName: string } | null
    }[]
    expect(traces.map((t) => t.type)).toContain('Call')
    expect(traces.every((t) => t.createdBy?.displayName)).toBe(true)
    // An API key (a global row) tells the business's members (a notification in the organisation's schema).
    const key = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${org.accessToken}` },
      payload: { businessId: org.businessId, label: 'east key' },
    })
    expect(key.statusCode, key.body).toBe(200)
    const notifications = (await ok(org.core({ url: '/api/notifications/user' }))) as {
      message: string
      user: { email: string }
    }[]
    expect(notifications.length).toBeGreaterThan(0)
    expect(notifications.every((n) => n.user.email === org.email)).toBe(true)
    // The API key works on east, and reads the organisation's own data only.
    const byKey = coreAs(ctx, { apiKey: (key.json() as { data: { token: string } }).data.token })
    const viaKey = (await ok(byKey({ url: '/api/v1/customers' }))) as { name: string }[]
    expect(viaKey.map((c) => c.name)).toContain('Traced')
    // Revoked on main (and the business told on east): the key is refused at once.
    const keyId = (key.json() as { data: { id: string } }).data.id
    const revoked = await ctx.global.inject({
      method: 'DELETE',
      url: `/api/auth/tokens/${keyId}`,
      headers: { authorization: `Bearer ${org.accessToken}` },
    })
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect((await byKey({ url: '/api/v1/customers' })).statusCode).toBe(401)
    const told = (await ok(org.core({ url: '/api/notifications/user' }))) as unknown[]
    expect(told.length).toBe(notifications.length + 1)
    // A second business: the global index on main, the business row on east.
    const branch = (await ok(
      org.core({ method: 'POST', url: '/api/business', payload: { registeredName: 'East branch' } }),
    )) as { id: string }
    await ok(
      org.core({
        method: 'PUT',
        url: `/api/business/${branch.id}`,
        payload: { registeredName: 'East branch', displayName: 'East', parentBusinessId: org.businessId },
      }),
    )
    const children = (await ok(org.core({ url: `/api/business/${org.businessId}/children` }))) as {
      id: string
    }[]
    expect(children.map((c) => c.id)).toEqual([branch.id])
    const eastBusinesses = await query<{ id: string }>(east, `SELECT id FROM ${org.schema}.businesses`)
    expect(eastBusinesses.map((b) => b.id)).toContain(branch.id)
    // A webhook endpoint: listed for the worker on main, kept on east.
    await ok(
      org.core({
        method: 'POST',
        url: '/api/v1/webhooks/endpoints',
        payload: { url: 'https://hooks.example.com/east', eventTypes: ['order.created'] },
      }),
    )
    expect(((await ok(org.core({ url: '/api/v1/webhooks/endpoints' }))) as unknown[]).length).toBe(1)
    // A tracking link: kept on east with the organisation, and opened with no sign-in.
    const parcel = (await ok(
      org.core({
        method: 'POST',
        url: '/api/v1/shipments',
        payload: {
          deliveryAddress: { fullAddress: 'somewhere', latitude: -33.9, longitude: 18.4 },
          weight: 10,
          volume: 0.1,
          scheduledDate: '2026-12-01T08:00:00Z',
        },
      }),
    )) as { id: string }
    const link = (await ok(
      org.core({ method: 'POST', url: `/api/v1/shipments/${parcel.id}/tracking-link` }),
    )) as { url: string }
    const token = /\/api\/v1\/track\/([A-Za-z0-9_-]+)/.exec(link.url)?.[1] as string
    expect((await query(east, 'SELECT 1 FROM global.tracking_links WHERE token = $1', [token])).length).toBe(
      1,
    )
    const page = await ctx.core.inject({ url: `/api/v1/track/${token}`, headers: { accept: 'text/html' } })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<h1>')
    // A custom role (global) and the team list.
    await ok(
      org.core({
        method: 'POST',
        url: '/api/team/roles',
        payload: { name: 'Dispatcher', permissions: { Customers: 1 } },
      }),
    )
    const roles = (await ok(org.core({ url: '/api/team/roles' }))) as { name: string }[]
    expect(roles.map((r) => r.name)).toContain('Dispatcher')
    // The SQL console, on the organisation's cluster, over its own data.
    const read = (await ok(
      org.core({
        method: 'POST',
        url: '/api/ai-studio/query',
        payload: { query: 'SELECT name FROM customers ORDER BY name' },
      }),
    )) as { rows: unknown[][] }
    expect(read.rows).toContainEqual(['Traced'])
    // What the person sees of themselves: both businesses.
    const me = await ok(org.core({ url: '/api/me' }))
    expect(JSON.stringify(me)).toContain(branch.id)
  })

  const keyFor = (org: (typeof orgs)[number], label: string) =>
    ctx.global.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${org.accessToken}` },
      payload: { businessId: org.businessId, label },
    })
  const countOn = async (server: OwnPostgres, text: string) =>
    (await query<{ n: number }>(server, `SELECT count(*)::int AS n FROM ${text}`))[0]?.n

  it('records role, member and API key changes of an organisation on east in its audit log, with the actor', async () => {
    const org = orgs[1] as (typeof orgs)[number]
    expect(org.cluster).toBe('east')
    const role = await org.core({
      method: 'POST',
      url: '/api/team/roles',
      payload: { name: 'Audited on east', permissions: { Orders: 7 } },
    })
    expect(role.statusCode, role.body).toBe(200)
    const roleId = role.json().data.id as string
    const renamed = await org.core({
      method: 'PUT',
      url: `/api/team/roles/${roleId}`,
      payload: { name: 'Audited on east', permissions: { Orders: 1 } },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    const key = await keyFor(org, 'audited on east')
    expect(key.statusCode, key.body).toBe(200)
    const keyId = key.json().data.id as string
    // Waiting on main, in the transactions of the changes, until the log is read.
    expect(
      await countOn(main, `global.audit_log_outbox WHERE schema_name = '${org.schema}'`),
    ).toBeGreaterThan(0)
    type Entry = {
      action: string
      actorType: string
      actorId: string | null
      entityId: string
      changes: object
    }
    const entries = async (entityType: string) => {
      const listed = await org.core({ url: '/api/v1/audit-log', query: { entityType } })
      expect(listed.statusCode, listed.body).toBe(200)
      return (listed.json().data as Entry[]).reverse()
    }
    const roles = (await entries('Role')).filter((e) => e.entityId === roleId)
    expect(roles.map((e) => [e.action, e.actorType, e.actorId])).toEqual([
      ['Created', 'User', org.userId],
      ['Updated', 'User', org.userId],
    ])
    expect(Object.keys(roles[1]?.changes ?? {})).toEqual(['permissions'])
    const keys = (await entries('ApiKey')).filter((e) => e.entityId === keyId)
    expect(keys.map((e) => [e.action, e.actorType, e.actorId])).toEqual([['Created', 'User', org.userId]])
    // In the organisation's log on east, once; nothing left waiting on main.
    expect(await countOn(east, `${org.schema}.audit_log WHERE entity_id = '${roleId}'`)).toBe(2)
    expect(await countOn(main, `global.audit_log_outbox WHERE schema_name = '${org.schema}'`)).toBe(0)
    // Read again: still once each.
    expect((await entries('Role')).filter((e) => e.entityId === roleId)).toHaveLength(2)
  })

  it('leaves nothing of a write to main and east when main refuses its commit, and commits both otherwise', async () => {
    const org = orgs[1] as (typeof orgs)[number]
    // Main refuses the commit of one key (a deferred trigger raises at COMMIT), after east's part is done.
    await query(
      main,
      `CREATE FUNCTION public.refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.label = 'refused at commit' THEN RAISE EXCEPTION 'main refuses the commit'; END IF; RETURN NULL; END $$;
       CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON global.api_keys
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.refuse_at_commit()`,
    )
    try {
      const notificationsBefore = await countOn(east, `${org.schema}.notifications`)
      const auditBefore = await countOn(east, `${org.schema}.audit_log`)
      const refused = await keyFor(org, 'refused at commit')
      expect(refused.statusCode).toBe(500)
      expect(await countOn(main, "global.api_keys WHERE label = 'refused at commit'")).toBe(0)
      // East's part (the notification to the members, the event's audit entry) is gone too.
      expect(await countOn(east, `${org.schema}.notifications`)).toBe(notificationsBefore)
      expect(await countOn(east, `${org.schema}.audit_log`)).toBe(auditBefore)
      expect(await countOn(east, 'pg_prepared_xacts')).toBe(0)
      expect(await countOn(main, 'global.cluster_commits')).toBe(0)
      // Any other key is written on both sides.
      const accepted = await keyFor(org, 'accepted at commit')
      expect(accepted.statusCode, accepted.body).toBe(200)
      expect(await countOn(main, "global.api_keys WHERE label = 'accepted at commit'")).toBe(1)
      expect(await countOn(east, `${org.schema}.notifications`)).toBe((notificationsBefore ?? 0) + 1)
      expect(await countOn(east, 'pg_prepared_xacts')).toBe(0)
      expect(await countOn(main, 'global.cluster_commits')).toBe(0)
    } finally {
      await query(
        main,
        'DROP TRIGGER refuse_at_commit ON global.api_keys; DROP FUNCTION public.refuse_at_commit()',
      )
    }
  })

  it('settles at start-up what a stopped process left prepared on east: committed if main committed, else rolled back', async () => {
    await query(east, 'CREATE TABLE public.prepared_probe (v text)')
    const client = new pg.Client({ connectionString: east.url })
    await client.connect()
    const gids = [`cartage:${crypto.randomUUID()}`, `cartage:${crypto.randomUUID()}`] as const
    try {
      for (const [i, gid] of gids.entries()) {
        await client.query('BEGIN')
        await client.query('INSERT INTO public.prepared_probe VALUES ($1)', [
          i === 0 ? 'decided' : 'undecided',
        ])
        await client.query(`PREPARE TRANSACTION '${gid}'`)
      }
    } finally {
      await client.end()
    }
    // Main committed the first one's record; the second's process stopped before main's commit.
    await query(main, "INSERT INTO global.cluster_commits (gid, cluster) VALUES ($1, 'east')", [gids[0]])
    const clusters = ctx.database.clusters
    if (!clusters) throw new Error('the test process has clusters')
    expect(await settlePreparedWrites(clusters)).toEqual({ committed: 1, rolledBack: 1 })
    expect((await query<{ v: string }>(east, 'SELECT v FROM public.prepared_probe')).map((r) => r.v)).toEqual(
      ['decided'],
    )
    expect(await countOn(east, 'pg_prepared_xacts')).toBe(0)
    expect(await countOn(main, 'global.cluster_commits')).toBe(0)
    expect(await settlePreparedWrites(clusters)).toEqual({ committed: 0, rolledBack: 0 })
    await query(east, 'DROP TABLE public.prepared_probe')
  })

  /** What a writer leaves on east: its organisation's part, prepared under `gid`. */
  const prepareOnEast = async (gid: string, statement: string) => {
    const client = new pg.Client({ connectionString: east.url })
    await client.connect()
    try {
      await client.query('BEGIN')
      await client.query(statement)
      await client.query(`PREPARE TRANSACTION '${gid}'`)
    } finally {
      await client.end()
    }
  }
  const until = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
    for (const started = Date.now(); !(await check()); ) {
      if (Date.now() - started > ms) throw new Error(`still not ${what} after ${ms} ms`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it('settles while serving what a stopped process left prepared, leaves a young one to its writer, and commits a live writer’s once main does', async () => {
    await query(east, 'CREATE TABLE public.settle_probe (v text)')
    const writer = new pg.Client({ connectionString: main.url })
    await writer.connect()
    const probe = async () =>
      (await query<{ v: string }>(east, 'SELECT v FROM public.settle_probe ORDER BY v')).map((r) => r.v)
    const [decided, undecided, live] = [1, 2, 3].map(() => `cartage:${crypto.randomUUID()}`) as [
      string,
      string,
      string,
    ]
    const clusters = ctx.database.clusters
    if (!clusters) throw new Error('the test process has clusters')
    let serving: Cartage<'global'> | undefined
    try {
      await prepareOnEast(decided, "INSERT INTO public.settle_probe VALUES ('decided')")
      await query(main, "INSERT INTO global.cluster_commits (gid, cluster) VALUES ($1, 'east')", [decided])
      await prepareOnEast(undecided, "INSERT INTO public.settle_probe VALUES ('undecided')")
      // Younger than the age a round looks at: left alone, its decision record kept.
      expect(await settlePreparedWrites(clusters, { olderThanMs: 60_000 })).toEqual({
        committed: 0,
        rolledBack: 0,
      })
      expect(await countOn(east, 'pg_prepared_xacts')).toBe(2)
      expect(await countOn(main, 'global.cluster_commits')).toBe(1)

      // A serving process settles them on its own, as main decided.
      // Another process, with pools of its own, that neither restarts nor migrates.
      serving = await openCartage(
        { ...loadConfig({ DATABASE_URL: main.url, DATABASE_CLUSTERS: `east=${east.url}` }), dataDir },
        {
          apis: ['global'],
          poolSize: 2,
          migrate: false,
          workers: true,
          // Long enough that the round below waits for the live writer rather than leaving it.
          settlePrepared: { intervalMs: 100, olderThanMs: 300, lockTimeoutMs: 60_000 },
        },
      )
      await until('settled', async () => (await countOn(east, 'pg_prepared_xacts')) === 0)
      expect(await probe()).toEqual(['decided'])
      expect(await countOn(main, 'global.cluster_commits')).toBe(0)

      // A live writer: main's transaction holds its decision record, not yet committed, and its
      // organisation's part is prepared. The round waits on the record's key rather than roll it back.
      await writer.query('BEGIN')
      await writer.query("INSERT INTO global.cluster_commits (gid, cluster) VALUES ($1, 'east')", [live])
      await prepareOnEast(live, "INSERT INTO public.settle_probe VALUES ('live')")
      await until(
        'waiting for the writer',
        async () =>
          (await countOn(
            main,
            "pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'insert into %cluster_commits%'",
          )) === 1,
      )
      expect(await countOn(east, 'pg_prepared_xacts')).toBe(1)
      await writer.query('COMMIT')
      await until('committed', async () => (await countOn(east, 'pg_prepared_xacts')) === 0)
      expect(await probe()).toEqual(['decided', 'live'])
      await until('forgotten', async () => (await countOn(main, 'global.cluster_commits')) === 0)
    } finally {
      // The writer's end first: a round waiting for its transaction ends with it.
      await writer.end()
      await serving?.close()
      await query(east, 'DROP TABLE public.settle_probe')
    }
  }, 60_000)

  it('leaves a write whose main transaction is stuck to a later round, which settles it, and stops without waiting for it', async () => {
    await query(east, 'CREATE TABLE public.stuck_probe (v text)')
    const stuck = `cartage:${crypto.randomUUID()}`
    // A writer whose main transaction wrote its decision record and then hung, its part prepared.
    const writer = new pg.Client({ connectionString: main.url })
    await writer.connect()
    const clusters = ctx.database.clusters
    if (!clusters) throw new Error('the test process has clusters')
    let serving: Cartage<'global'> | undefined
    const hangGuard = <T>(work: Promise<T>) => {
      let timer: NodeJS.Timeout | undefined
      const hung = new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), 30_000)
      })
      return Promise.race([work, hung]).finally(() => clearTimeout(timer))
    }
    try {
      await writer.query('BEGIN')
      await writer.query("INSERT INTO global.cluster_commits (gid, cluster) VALUES ($1, 'east')", [stuck])
      await prepareOnEast(stuck, "INSERT INTO public.stuck_probe VALUES ('stuck')")

      // A round facing the held record returns (it waited before, for as long as the writer hung),
      // says which write it left, and leaves it prepared.
      const left: { cluster: string; gid: string }[] = []
      const round = await hangGuard(
        settlePreparedWrites(clusters, { lockTimeoutMs: 200, onLeft: (l) => left.push(l) }),
      )
      expect(round).toEqual({ committed: 0, rolledBack: 0 })
      expect(left).toEqual([{ cluster: 'east', gid: stuck }])
      expect(await countOn(east, 'pg_prepared_xacts')).toBe(1)

      // A serving process whose round waits on that record (a long lock timeout) stops without
      // waiting for it: its claim is cut off, and nothing is settled behind the writer's back.
      serving = await openCartage(
        { ...loadConfig({ DATABASE_URL: main.url, DATABASE_CLUSTERS: `east=${east.url}` }), dataDir },
        {
          apis: ['global'],
          poolSize: 2,
          migrate: false,
          workers: true,
          settlePrepared: { intervalMs: 100, olderThanMs: 0, lockTimeoutMs: 600_000 },
        },
      )
      await until(
        'waiting for the stuck writer',
        async () =>
          (await countOn(
            main,
            "pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'insert into %cluster_commits%'",
          )) === 1,
      )
      expect(await hangGuard(serving.close())).not.toBe('hung')
      serving = undefined
      expect(await countOn(east, 'pg_prepared_xacts')).toBe(1)

      // The writer's main transaction ends (committed): a later round commits its part.
      await writer.query('COMMIT')
      await until('settled', async () => {
        await settlePreparedWrites(clusters, { lockTimeoutMs: 200 })
        return (await countOn(east, 'pg_prepared_xacts')) === 0
      })
      expect((await query<{ v: string }>(east, 'SELECT v FROM public.stuck_probe')).map((r) => r.v)).toEqual([
        'stuck',
      ])
      await until('forgotten', async () => (await countOn(main, 'global.cluster_commits')) === 0)
    } finally {
      await writer.end()
      await serving?.close()
      await query(east, 'DROP TABLE public.stuck_probe')
    }
  }, 90_000)

  it('completes concurrent writes to main and east with both pools full, none hanging', async () => {
    const org = orgs[1] as (typeof orgs)[number]
    // Three connections per cluster (poolSize 3): 30 requests that each need main and east at once,
    // beside reads of east that ask main for global rows.
    const requests = Array.from({ length: 30 }, (_, i) => {
      if (i % 3 === 0) return keyFor(org, `crowd ${i}`)
      if (i % 3 === 1)
        return org.core({ method: 'POST', url: '/api/business', payload: { registeredName: `Crowd ${i}` } })
      return org.core({ url: '/api/notifications/user' })
    })
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), 60_000)
    })
    const answered = await Promise.race([Promise.all(requests), hung])
    clearTimeout(timer)
    expect(answered).not.toBe('hung')
    const statuses = (answered as { statusCode: number }[]).map((r) => r.statusCode)
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0)
    expect(await countOn(east, 'pg_prepared_xacts')).toBe(0)
  }, 90_000)

  it('follows the placement setting of the process that registers, and other processes find the organisation', async () => {
    const response = await second.global.inject({
      method: 'POST',
      url: '/api/organizations',
      payload: registrationBody(),
    })
    expect(response.statusCode, response.body).toBe(200)
    const body = JSON.parse(response.payload) as { data: { id: string; currentUser: { email: string } } }
    const placed = await placementOf(body.data.id)
    expect(placed.cluster).toBe('east')
    // Signed in and served by the first process, which never saw this organisation made.
    const session = await signIn(ctx, {
      email: body.data.currentUser.email,
      password: 'correct-horse-battery',
    })
    const core = coreAs(ctx, { accessToken: session.accessToken, businessId: body.data.id })
    const created = await core({
      method: 'POST',
      url: '/api/v1/customers',
      payload: { name: 'Late', type: 'Company' },
    })
    expect(created.statusCode, created.body).toBe(200)
    const listed = await core({ method: 'GET', url: '/api/v1/customers' })
    expect((listed.json().data as { name: string }[]).map((c) => c.name)).toEqual(['Late'])
  })

  it('keeps a transaction on one cluster and the global tables on main: what would cross fails instead of answering wrongly', async () => {
    const [onMain, onEast] = orgs as [(typeof orgs)[number], (typeof orgs)[number]]
    const db = ctx.database.db
    const across = db.transaction().execute(async (trx) => {
      await sql`SELECT count(*) FROM ${sql.id(onEast.schema, 'customers')}`.execute(trx)
      await sql`SELECT count(*) FROM ${sql.id(onMain.schema, 'customers')}`.execute(trx)
    })
    await expect(across).rejects.toThrow(/cluster east cannot reach cluster main/)
    // Inside a transaction on east, a plain read of global rows is answered by main (outside the
    // transaction); a write or a locking read of them is refused.
    const read = await db.transaction().execute(async (trx) => {
      await sql`SELECT count(*) FROM ${sql.id(onEast.schema, 'customers')}`.execute(trx)
      return trx.selectFrom('global.users').select('id').execute()
    })
    expect(read.length).toBeGreaterThanOrEqual(4)
    const writeOnEast = db.transaction().execute(async (trx) => {
      await sql`SELECT count(*) FROM ${sql.id(onEast.schema, 'customers')}`.execute(trx)
      await trx.updateTable('global.users').set({ first_name: 'X' }).where('id', '=', onEast.userId).execute()
    })
    await expect(writeOnEast).rejects.toThrow(/names a global table/)
    const lockOnEast = db.transaction().execute(async (trx) => {
      await sql`SELECT count(*) FROM ${sql.id(onEast.schema, 'customers')}`.execute(trx)
      await trx.selectFrom('global.users').select('id').forUpdate().execute()
    })
    await expect(lockOnEast).rejects.toThrow(/names a global table/)
    // Statements on their own go where each belongs.
    const counted = await Promise.all(
      [onMain, onEast].map((org) =>
        sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(org.schema, 'customers')}`.execute(db),
      ),
    )
    // The organisation on east has the customer of the features' walk too.
    expect(counted.map((r) => r.rows[0]?.n)).toEqual([1, 2])
    expect((await db.selectFrom('global.organizations').select('id').execute()).length).toBe(5)
  })

  it('migrates every cluster, and db:status reports each', async () => {
    const status = await migrationStatus(ctx.database)
    expect(status.clusters).toEqual([
      { name: 'main', globalPending: [], tenantSchemas: 2, tenantSchemasBehind: 0, orphanSchemas: 0 },
      { name: 'east', globalPending: [], tenantSchemas: 3, tenantSchemasBehind: 0, orphanSchemas: 0 },
    ])
    // A new tenant migration reaches the organisations of both clusters.
    const migrations = {
      ...ctx.database.migrations,
      tenant: [
        ...ctx.database.migrations.tenant,
        { name: '29990101000000-cluster-probe', sql: 'CREATE TABLE cluster_probe (id int)' },
      ],
    }
    const report = await migrate({ ...ctx.database, migrations })
    expect(report.clusters).toEqual([
      { name: 'main', globalApplied: [], tenantSchemas: 2, tenantSchemasMigrated: 2 },
      { name: 'east', globalApplied: [], tenantSchemas: 3, tenantSchemasMigrated: 3 },
    ])
    for (const org of orgs) {
      const server = org.cluster === 'main' ? main : east
      const rows = await query<{ found: string | null }>(server, 'SELECT to_regclass($1)::text AS found', [
        `${org.schema}.cluster_probe`,
      ])
      expect(rows[0]?.found).toBe(`${org.schema}.cluster_probe`)
    }
    expect((await migrationStatus({ ...ctx.database, migrations })).tenantSchemasBehind).toBe(0)
  })

  it('settles what a stopped process left prepared before migrating, whose locks would hold the migration back', async () => {
    const org = orgs[1] as (typeof orgs)[number]
    expect(org.cluster).toBe('east')
    const gid = `cartage:${crypto.randomUUID()}`
    // Main committed; the process stopped before COMMIT PREPARED: its row lock on cluster_probe stays.
    await prepareOnEast(gid, `INSERT INTO ${org.schema}.cluster_probe VALUES (1)`)
    await query(main, "INSERT INTO global.cluster_commits (gid, cluster) VALUES ($1, 'east')", [gid])
    const migrations = {
      ...ctx.database.migrations,
      tenant: [
        ...ctx.database.migrations.tenant,
        { name: '29990101000000-cluster-probe', sql: 'CREATE TABLE cluster_probe (id int)' },
        { name: '29990101000001-cluster-probe-note', sql: 'ALTER TABLE cluster_probe ADD COLUMN note text' },
      ],
    }
    let timer: NodeJS.Timeout | undefined
    const held = new Promise<'held back'>((resolve) => {
      timer = setTimeout(() => resolve('held back'), 30_000)
    })
    const report = await Promise.race([migrate({ ...ctx.database, migrations }), held])
    clearTimeout(timer)
    if (report === 'held back') throw new Error('the migration waited for the prepared write')
    expect(report.settled).toEqual({ committed: 1, rolledBack: 0 })
    expect(report.clusters.map((c) => [c.name, c.tenantSchemasMigrated])).toEqual([
      ['main', 2],
      ['east', 3],
    ])
    expect(await query(east, `SELECT id, note FROM ${org.schema}.cluster_probe`)).toEqual([
      { id: 1, note: null },
    ])
    expect(await countOn(east, 'pg_prepared_xacts')).toBe(0)
    expect(await countOn(main, 'global.cluster_commits')).toBe(0)
  }, 60_000)

  it('moves an organisation to another cluster while it is read and written, losing no acknowledged write', async () => {
    const org = orgs[0] as (typeof orgs)[number]
    expect(org.cluster).toBe('main')
    for (let i = 0; i < 20; i++) {
      const created = await org.core({
        method: 'POST',
        url: '/api/v1/customers',
        payload: { name: `Before ${i}`, type: 'Company' },
      })
      expect(created.statusCode, created.body).toBe(200)
    }
    const names = async () => {
      const listed = await org.core({ method: 'GET', url: '/api/v1/customers?PageSize=100' })
      return {
        status: listed.statusCode,
        names:
          listed.statusCode === 200
            ? (listed.json().data as { name: string }[]).map((c) => c.name).sort()
            : [],
      }
    }
    const before = (await names()).names
    expect(before).toHaveLength(21)
    let moving = true
    const reads: number[] = []
    const acknowledged: string[] = []
    const writes: number[] = []
    const reading = (async () => {
      while (moving) reads.push((await names()).status)
    })()
    const writing = (async () => {
      for (let i = 0; moving && i < 60; i++) {
        const created = await org.core({
          method: 'POST',
          url: '/api/v1/customers',
          payload: { name: `During ${i}`, type: 'Company' },
        })
        writes.push(created.statusCode)
        if (created.statusCode === 200) acknowledged.push(`During ${i}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    })()
    await new Promise((resolve) => setTimeout(resolve, 200))
    const report = await moveOrganisation(ctx.database, org.schema, 'east')
    moving = false
    await Promise.all([reading, writing])
    expect(report).toMatchObject({ schema: org.schema, from: 'main', to: 'east' })
    expect(report.tables.customers).toBeGreaterThanOrEqual(21)
    expect((await placementOf(org.businessId)).cluster).toBe('east')
    expect(await schemasOn(main)).not.toContain(org.schema)
    expect(await schemasOn(east)).toContain(org.schema)
    // Reads went on; nothing acknowledged is missing, before or during the move.
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.filter((status) => status !== 200)).toEqual([])
    expect(acknowledged.length).toBeGreaterThan(0)
    const after = (await names()).names
    for (const name of [...before, ...acknowledged]) expect(after).toContain(name)
    const onEast = await query<{ n: number }>(east, `SELECT count(*)::int AS n FROM ${org.schema}.customers`)
    expect(onEast[0]?.n).toBe(after.length)
    // And it keeps working where it is now.
    const created = await org.core({
      method: 'POST',
      url: '/api/v1/customers',
      payload: { name: 'After', type: 'Company' },
    })
    expect(created.statusCode, created.body).toBe(200)
    expect(
      (await migrationStatus(ctx.database)).clusters.map((c) => [c.name, c.tenantSchemas, c.orphanSchemas]),
    ).toEqual([
      ['main', 1, 0],
      ['east', 4, 0],
    ])
  })
})
