import { describe, expect, it } from 'vitest'
import {
  addMember,
  addRole,
  createApiKey,
  fieldsOf,
  insertCustomer,
  organizationIdOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { MODULES } from '../../../apps/modules.js'
import { consoleViewsOf } from '../../../platform/module.js'

// No story here is about the embedded console's time limit (sql-console.limits.test.ts has those):
// a generous one keeps the byte and row caps' stories from being stopped on a busy machine.
const ctx = useTestContext({ SQL_CONSOLE_EMBEDDED_TIME_LIMIT_MS: '30000' })
// Stories that read no organisation data of their own (limits, errors, the schema, permissions) share one.
useSharedOrganisation(ctx)

type Client = ReturnType<typeof coreAs>
const run = (core: Client, payload: Record<string, unknown>) =>
  core({ method: 'POST', url: '/api/ai-studio/query', payload })

/**
 * Row counts of everything the test's organisations own: every table of their schemas, and their
 * rows of the global tables (other test files share the PostgreSQL database and change the rest).
 */
async function rowCounts(businessIds: string[]): Promise<Record<string, number>> {
  const orgs = await ctx.database.pool.query<{ id: string; schema_name: string }>(
    `SELECT o.id, o.schema_name FROM global.organizations o JOIN global.businesses b ON b.organization_id = o.id
     WHERE b.id = ANY($1::uuid[])`,
    [businessIds],
  )
  const orgIds = orgs.rows.map((o) => o.id)
  const counts: Record<string, number> = {}
  const count = async (label: string, text: string, values: unknown[] = []) => {
    counts[label] = (await ctx.database.pool.query<{ n: number }>(text, values)).rows[0]?.n ?? -1
  }
  for (const { schema_name: schema } of orgs.rows) {
    const tables = await ctx.database.pool.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema = $1`,
      [schema],
    )
    for (const { t } of tables.rows)
      await count(`${schema}.${t}`, `SELECT count(*)::int AS n FROM "${schema}"."${t}"`)
  }
  for (const table of ['organizations', 'businesses', 'memberships', 'sessions', 'api_keys', 'roles']) {
    const column = table === 'organizations' ? 'id' : 'organization_id'
    await count(
      `global.${table}`,
      `SELECT count(*)::int AS n FROM global.${table} WHERE ${column} = ANY($1::uuid[])`,
      [orgIds],
    )
  }
  await count(
    'global.users',
    'SELECT count(*)::int AS n FROM global.users u JOIN global.memberships m ON m.user_id = u.id WHERE m.organization_id = ANY($1::uuid[])',
    [orgIds],
  )
  return counts
}

/** A hundred rows the planner counts exactly, so a cross join of them is priced honestly. */
const HUNDRED = `(VALUES ${Array.from({ length: 100 }, (_, i) => `(${i})`).join(', ')})`

/** [label, query, outcome]: refused with a 400 naming query, or answered harmlessly (text stays text). */
const ABUSE: [string, string, ('harmless' | 'refused')?][] = [
  ['insert', "INSERT INTO customers (id) VALUES ('x')"],
  ['update', "UPDATE customers SET name = 'x'"],
  ['delete', 'DELETE FROM customers'],
  ['drop', 'DROP TABLE customers'],
  ['truncate', 'TRUNCATE customers'],
  ['create', 'CREATE TABLE x (a int)'],
  ['two statements', 'SELECT 1; DELETE FROM customers'],
  ['statement after comment', 'SELECT 1 /* x */; DELETE FROM customers'],
  ['begin', 'BEGIN'],
  ['commit', 'COMMIT'],
  ['set role', 'SET ROLE postgres'],
  ['reset role', 'RESET ROLE'],
  ['set session authorization', 'SET SESSION AUTHORIZATION postgres'],
  ['set search_path', 'SET search_path TO global'],
  ['data-modifying CTE', 'WITH d AS (DELETE FROM customers RETURNING *) SELECT * FROM d'],
  ['select into', 'SELECT * INTO copy FROM customers'],
  ['for update', 'SELECT * FROM customers FOR UPDATE'],
  ['for share in subquery', 'SELECT * FROM (SELECT * FROM orders FOR SHARE) o'],
  ['pg_sleep', 'SELECT pg_sleep(10)'],
  ['set_config', "SELECT set_config('search_path', 'global', false)"],
  ['current_setting', "SELECT current_setting('search_path')"],
  ['nextval', "SELECT nextval('x')"],
  ['advisory lock', 'SELECT pg_advisory_lock(1)'],
  ['notify', "SELECT pg_notify('c', 'x')"],
  ['read file', "SELECT pg_read_file('/etc/passwd')"],
  ['ls dir', "SELECT pg_ls_dir('.')"],
  ['dblink', "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)"],
  ['lo_import', "SELECT lo_import('/etc/passwd')"],
  ['qualified function', 'SELECT pg_catalog.pg_sleep(1)'],
  ['quoted function name', 'SELECT "pg_sleep"(1)'],
  ['global schema', 'SELECT * FROM global.users'],
  ['quoted global schema', 'SELECT * FROM "global"."users"'],
  ['pg_catalog table', 'SELECT * FROM pg_catalog.pg_authid'],
  ['unqualified catalogue', 'SELECT * FROM pg_roles'],
  ['information_schema', 'SELECT * FROM information_schema.tables'],
  ['pg_stat_activity', 'SELECT query FROM pg_stat_activity'],
  ['internal tenant table', 'SELECT * FROM settings'],
  ['another schema qualified', 'SELECT * FROM org_00000000.customers'],
  ['regclass cast', "SELECT 'global.users'::regclass"],
  ['unicode escape identifier', 'SELECT * FROM U&"\\0070g_roles"'],
  ['unicode escape function', 'SELECT U&"\\0070g_sleep"(1)'],
  ['generate_series bomb', 'SELECT * FROM generate_series(1, 1000000000)'],
  ['bounded generate_series', 'SELECT count(*) FROM generate_series(1, 1000) AS g(n)', 'harmless'],
  [
    'cross join of bounded series',
    'SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b, generate_series(1, 100000) c',
  ],
  ['series sized by a column', 'SELECT * FROM customers, generate_series(1, length(name))'],
  ['series of a huge literal', 'SELECT * FROM generate_series(1, 99999999999)'],
  ['rows from', 'SELECT * FROM ROWS FROM (generate_series(1, 3))'],
  ['other function in FROM', "SELECT * FROM pg_ls_dir('.') AS f"],
  [
    'recursive CTE bomb',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
  ],
  [
    'cross-join bomb',
    `SELECT count(*) FROM ${HUNDRED} a(x), ${HUNDRED} b(x), ${HUNDRED} c(x), ${HUNDRED} d(x), ${HUNDRED} e(x), customers f`,
  ],
  ['copy', 'COPY customers TO STDOUT'],
  ['explain analyze', 'EXPLAIN ANALYZE SELECT 1'],
  ['prepare', 'PREPARE p AS SELECT 1'],
  ['do block', 'DO $$ BEGIN PERFORM pg_sleep(1); END $$'],
  ['dollar-quoted escape', 'SELECT $q$ ) x; DELETE FROM customers; -- $q$, pg_sleep(1)'],
  ['dollar-quoted text only', 'SELECT $q$ ) x; DELETE FROM customers; -- $q$ AS t', 'harmless'],
  ['comment closing the wrapper', 'SELECT 1 -- ) x; DELETE FROM customers', 'harmless'],
  ['block comment closing the wrapper', 'SELECT 1 /* ) x; DELETE FROM customers */', 'harmless'],
  ['string closing the wrapper', "SELECT ') x; DELETE FROM customers; --' AS t", 'harmless'],
  ['lock table', 'LOCK TABLE customers'],
  ['listen', 'LISTEN c'],
  ['vacuum', 'VACUUM'],
  ['xml', "SELECT xmlparse(document '<a/>')"],
  ['session_user', 'SELECT session_user'],
  ['current_catalog', 'SELECT current_catalog'],
  ['tablesample', 'SELECT * FROM customers TABLESAMPLE SYSTEM (50)'],
]

describe('POST /api/ai-studio/query', () => {
  it('runs a SELECT over the caller business with parameters, columns and types', async () => {
    const { core, org } = await ownerSession(ctx)
    await insertCustomer(ctx, org.businessId, { name: 'Alice' })
    await insertCustomer(ctx, org.businessId, { name: 'Bob' })
    await insertCustomer(ctx, org.businessId, { name: 'Gone', deleted: true })
    const response = await run(core, {
      query: 'SELECT name, length(name) AS n FROM customers WHERE name <> $1 ORDER BY name;',
      parameters: ['Bob'],
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toMatchObject({
      columns: [
        { name: 'name', dataType: 'text' },
        { name: 'n', dataType: 'integer' },
      ],
      rows: [['Alice', 5]],
      rowCount: 1,
      truncated: false,
    })
    expect(typeof response.json().data.elapsedMs).toBe('number')
    const all = await run(core, {
      query: 'WITH c AS (SELECT name FROM customers) SELECT count(*) AS n FROM c',
    })
    expect(all.json().data.rows).toEqual([[2]])
  })

  it('caps rows by maxRows and says so', async () => {
    const { core } = await sharedOrganisation(ctx)
    const response = await run(core, {
      query: 'SELECT x FROM (VALUES (1), (2), (3), (4), (5)) AS v(x)',
      maxRows: 3,
    })
    expect(response.json().data).toMatchObject({ rows: [[1], [2], [3]], rowCount: 3, truncated: true })
    const big = await run(core, {
      query: "SELECT repeat('x', 1000000) AS a, repeat('y', 1000000) AS b, repeat('z', 1000000) AS c",
    })
    // Each value is cut to its first 100,000 characters in the database, before it travels.
    expect(big.statusCode).toBe(200)
    expect(big.json().data).toMatchObject({ rowCount: 1, truncated: true })
    expect(big.json().data.rows[0]).toEqual(['x', 'y', 'z'].map((c) => c.repeat(100_000)))
  })

  it('reads rows in batches under the byte cap and cuts each large value in the database', async () => {
    const { core } = await sharedOrganisation(ctx)
    const response = await run(core, {
      query: "SELECT repeat('x', 1000000) AS v FROM generate_series(1, 1000)",
    })
    expect(response.statusCode, response.body).toBe(200)
    const data = response.json().data
    expect(data.truncated).toBe(true)
    expect(data.columns).toEqual([{ name: 'v', dataType: 'text' }])
    // 100,000 characters a value, about 2 MB in all.
    expect(data.rowCount).toBe(19)
    expect(data.rows.every((row: string[]) => row[0] === 'x'.repeat(100_000))).toBe(true)
    // Duplicate names are kept; small values are untouched.
    const dup = (await run(core, { query: "SELECT 1 AS a, 'two' AS a, NULL::text AS n" })).json().data
    expect(dup).toMatchObject({ rows: [[1, 'two', null]], truncated: false })
    expect(dup.columns.map((c: { name: string }) => c.name)).toEqual(['a', 'a', 'n'])
  })

  it('never shows another organisation data (same table names)', async () => {
    const a = await ownerSession(ctx)
    const b = await ownerSession(ctx)
    await insertCustomer(ctx, a.org.businessId, { name: 'Only A' })
    await insertCustomer(ctx, b.org.businessId, { name: 'Only B' })
    const rows = (await run(a.core, { query: 'SELECT name FROM customers' })).json().data.rows
    expect(rows).toEqual([['Only A']])
    const rowsB = (await run(b.core, { query: 'SELECT name FROM customers' })).json().data.rows
    expect(rowsB).toEqual([['Only B']])
  })

  it('refuses every escape and abuse attempt, and no table changes', async () => {
    const { core, org } = await ownerSession(ctx)
    await insertCustomer(ctx, org.businessId, { name: 'Alice' })
    const other = await ownerSession(ctx)
    await insertCustomer(ctx, other.org.businessId, { name: 'Secret' })
    const mine = [org.businessId, other.org.businessId]
    const before = await rowCounts(mine)
    expect(Object.keys(before).length).toBeGreaterThan(20)
    expect(ABUSE.length).toBeGreaterThanOrEqual(40)
    for (const [label, query, outcome = 'refused'] of ABUSE) {
      const response = await run(core, { query })
      expect(response.statusCode, `${label}: ${response.body}`).toBe(outcome === 'refused' ? 400 : 200)
      if (outcome === 'refused') expect(fieldsOf(response), label).toEqual(['query'])
      expect(response.body, label).not.toContain('Secret')
    }
    expect(await rowCounts(mine)).toEqual(before)
  })

  it('refuses a hidden table under the name of a CTE, to a Member, in every shadowing form', async () => {
    const { org } = await ownerSession(ctx)
    // Insights View is in the default Member role.
    const member = await addMember(ctx, org.businessId, { role: 'Member' })
    const shadowed: [string, string][] = [
      [
        'WITH webhook_endpoints AS (SELECT * FROM webhook_endpoints) SELECT * FROM webhook_endpoints',
        'webhook_endpoints',
      ],
      ['WITH pg_authid AS (SELECT * FROM pg_authid) SELECT rolname FROM pg_authid', 'pg_authid'],
      ['WITH a AS (SELECT * FROM audit_log), audit_log AS (SELECT 1) SELECT * FROM a', 'audit_log'],
      ['WITH a AS (WITH settings AS (SELECT 1) SELECT 1) SELECT * FROM a, settings', 'settings'],
      ['SELECT * FROM (WITH notifications AS (SELECT 1) SELECT 1) s, notifications', 'notifications'],
      ['SELECT * FROM (SELECT 1) AS settings WHERE EXISTS (SELECT 1 FROM settings)', 'settings'],
      ['(WITH settings AS (SELECT * FROM settings) SELECT 1) UNION SELECT 1', 'settings'],
      ['SELECT * FROM webhook_endpoints()', 'webhook_endpoints'],
      ['WITH generate_series AS (SELECT * FROM settings) SELECT * FROM generate_series', 'settings'],
      ['WITH Settings AS (SELECT * FROM SETTINGS) SELECT * FROM settings', 'settings'],
      ['WITH settings AS (SELECT * FROM "settings") SELECT * FROM SETTINGS', 'settings'],
      ['WITH "Settings" AS (SELECT 1) SELECT * FROM settings', 'settings'],
    ]
    for (const [query, relation] of shadowed) {
      const response = await run(member.core, { query })
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400)
      expect(fieldsOf(response), query).toEqual(['query'])
      // The refusal names the relation (the body does not echo the query).
      expect(response.json().reasons[0].message, query).toMatch(
        new RegExp(`\\b${relation}\\b.*not allowed|not allowed \\(${relation}\\)`),
      )
    }
    // A CTE named like an exposed table reads the exposed table, as PostgreSQL resolves it.
    await insertCustomer(ctx, org.businessId, { name: 'Alice' })
    const own = await run(member.core, {
      query: 'WITH customers AS (SELECT name FROM customers) SELECT name FROM customers',
    })
    expect(own.json().data.rows).toEqual([['Alice']])
  })

  it('names the refused function and gives the position of a syntax error', async () => {
    const { core } = await sharedOrganisation(ctx)
    expect((await run(core, { query: 'SELECT pg_sleep(1)' })).body).toContain('pg_sleep')
    expect((await run(core, { query: 'SELECT FROM WHERE 1' })).body).toContain('position 13')
    expect((await run(core, { query: 'SELECT * FROM pg_roles' })).body).toContain('pg_roles')
    const series = await run(core, { query: 'SELECT sum(n) FROM generate_series(1, 100) AS g(n)' })
    expect(series.json().data.rows).toEqual([[5050]])
  })

  it('lists the exposed tables with the column types a query sees', async () => {
    const { core } = await sharedOrganisation(ctx)
    const schema = await core({ url: '/api/ai-studio/schema' })
    expect(schema.statusCode).toBe(200)
    const tables = schema.json().data.tables as {
      name: string
      columns: { name: string; dataType: string }[]
    }[]
    const typeOf = (table: string, column: string) =>
      tables.find((t) => t.name === table)?.columns.find((c) => c.name === column)?.dataType
    expect(typeOf('customers', 'id')).toBe('uuid')
    expect(typeOf('customers', 'name')).toBe('text')
    expect(typeOf('orders', 'total')).toMatch(/^numeric/)
    expect(typeOf('shipments', 'scheduled_date')).toMatch(/^(date|timestamp)/)
    expect(tables.flatMap((t) => t.columns).filter((c) => c.dataType === 'unknown')).toEqual([])
  })

  it('answers 400 naming the field for bad bodies', async () => {
    const { core } = await sharedOrganisation(ctx)
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: `SELECT ${'1'.repeat(10_001)}` }, 'query'],
      [{ query: 'SELECT 1', maxRows: 0 }, 'maxRows'],
      [{ query: 'SELECT 1', maxRows: 10_001 }, 'maxRows'],
      [{ query: 'SELECT 1', parameters: 'x' }, 'parameters'],
      [{ query: 'SELECT $2', parameters: [1] }, 'query'],
    ]
    for (const [payload, field] of cases) {
      const response = await run(core, payload)
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400)
      expect(fieldsOf(response).map((f) => f.replace(/^\//, '').split(/[./]/)[0])).toContain(field)
    }
  })

  it('needs a credential and Insights View, with a bearer token or an API key', async () => {
    const t = await sharedOrganisation(ctx)
    const organizationId = await organizationIdOf(ctx, t.org.businessId)
    const without = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Orders: 7, Customers: 7 }),
    })
    const withView = await addMember(ctx, t.org.businessId, {
      role: 'Custom',
      customRoleId: await addRole(ctx, organizationId, { Insights: 1 }),
    })
    const key = (scopes: Record<string, number>) =>
      createApiKey(ctx, t.signedIn.accessToken, t.org.businessId, { scopes: JSON.stringify(scopes) })
    const keyWithout = coreAs(ctx, { apiKey: await key({ Orders: 7 }) })
    const keyWith = coreAs(ctx, { apiKey: await key({ Insights: 1 }) })
    const payload = { query: 'SELECT 1 AS one' }
    expect((await ctx.core.inject({ method: 'POST', url: '/api/ai-studio/query', payload })).statusCode).toBe(
      401,
    )
    expect((await ctx.core.inject({ url: '/api/ai-studio/schema' })).statusCode).toBe(401)
    for (const refused of [without.core, keyWithout]) {
      expect((await run(refused, payload)).statusCode).toBe(403)
      expect((await refused({ url: '/api/ai-studio/schema' })).statusCode).toBe(403)
    }
    for (const allowed of [withView.core, keyWith]) {
      expect((await run(allowed, payload)).json().data.rows).toEqual([[1]])
      const schema = await allowed({ url: '/api/ai-studio/schema' })
      expect(schema.statusCode).toBe(200)
      // Every module's declared console views, in module order; the same relations as before they were declared.
      const names = schema.json().data.tables.map((table: { name: string }) => table.name)
      expect(names).toEqual(Object.keys(consoleViewsOf(MODULES)))
      expect([...names].sort()).toEqual([
        'customers',
        'delivery_proofs',
        'orders',
        'products',
        'purchase_order_lines',
        'purchase_orders',
        'return_lines',
        'returns',
        'shipment_lines',
        'shipments',
        'stock_reservations',
        'supplier_products',
        'suppliers',
        'transfer_order_lines',
        'transfer_orders',
      ])
    }
  })
})
