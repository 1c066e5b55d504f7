import { describe, expect, it } from 'vitest'
import {
  addBusiness,
  addMember,
  businessSession,
  insertCustomer,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { MODULES } from '../../../apps/modules.js'
import { loadConfig } from '../../../config.js'
import { consoleViewsOf } from '../../../platform/module.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { inConsoleTransaction } from './console-connection.js'
import { consoleRunner } from './console-limits.js'
import {
  CONSOLE_BUSINESS_SETTING,
  consoleRoleOf,
  consoleSchemaOf,
  ensureConsoleSurface,
} from './console-role.js'
import { sql as dropConsoleNamesTellingTheSchema } from './migrations/20261202090100-drop-console-names-telling-the-schema.js'
import {
  columnsOnly,
  cutRows,
  fetchRows,
  openCursor,
  overConsoleTables,
  resultColumns,
} from './sql-console.repository.js'

const VIEWS = consoleViewsOf(MODULES)

const ctx = useTestContext()
// Most stories read one business's rows through its organisation's console role: a new business of
// an organisation registered once per file. The two about building the organisation's surface (kept
// in memory per schema once built) register their own.
useSharedOrganisation(ctx)
/** A new business of the file's organisation (`name`: another organisation's). */
const business = async (name?: string) => businessSession(ctx, await sharedOrganisation(ctx, name))

async function schemaOf(businessId: string): Promise<string> {
  const { rows } = await ctx.database.pool.query<{ schema_name: string }>(
    `SELECT o.schema_name FROM global.organizations o JOIN global.businesses b ON b.organization_id = o.id
     WHERE b.id = $1`,
    [businessId],
  )
  return rows[0]?.schema_name as string
}

/**
 * Runs `text` as `role` the way the console does (READ ONLY, SET LOCAL ROLE), without the parser
 * gate in front: what the database layer alone allows. Returns the rows or the SQLSTATE.
 */
async function asRole(
  role: string,
  text: string,
  businessId?: string,
): Promise<{ rows?: unknown[]; code?: string }> {
  const client = await ctx.database.pool.connect()
  try {
    await client.query('BEGIN TRANSACTION READ ONLY')
    if (businessId) await client.query(`SET LOCAL ${CONSOLE_BUSINESS_SETTING} = '${businessId}'`)
    await client.query(`SET LOCAL ROLE "${role}"`)
    return { rows: (await client.query(text)).rows }
  } catch (error) {
    return { code: (error as { code?: string }).code ?? 'unknown' }
  } finally {
    await client.query('ROLLBACK')
    client.release()
  }
}

/**
 * The console's own path with the gate skipped: `statement` wrapped behind the exposed tables and
 * run as the console runs it (its transaction and business setting, under the organisation's
 * console role, its columns read first, then its rows from a cursor with large values cut in the
 * database). Returns the rows or the SQLSTATE.
 */
async function wrapped(businessId: string, statement: string): Promise<{ rows?: unknown[]; code?: string }> {
  const auth = { schemaName: await schemaOf(businessId), businessId } as BusinessAuth
  const surface = await ensureConsoleSurface(ctx.database, VIEWS, auth.schemaName)
  const over = (outer: (query: string) => string) => overConsoleTables(VIEWS, auth, surface, statement, outer)
  const runner = consoleRunner(ctx.database, loadConfig({}))
  const session = { searchPath: surface.schema, role: surface.role, businessId }
  return inConsoleTransaction(runner, ctx.database.kind === 'postgres', session, async (connection) => {
    try {
      const fields = await resultColumns(connection, over(columnsOnly), [])
      const names = fields.map((f) => f.name)
      await openCursor(connection, over(cutRows(names, 10, 1_000)), [])
      // The values without their cut prefixes (none is large here).
      return { rows: (await fetchRows(connection, 10)).map((row) => row.slice(0, names.length)) }
    } catch (error) {
      // The transaction is rolled back after it: the connection stays whole.
      return { code: (error as { code?: string }).code ?? 'unknown' }
    }
  })
}

/** The set-returning functions of pg_catalog a console role keeps: they compute, they read nothing. */
const GENERAL_SETS =
  /^(generate_series|generate_subscripts|unnest|regexp_matches|regexp_split_to_table|string_to_table|jsonb?_.*)$/

describe('the SQL console database layer (gate bypassed)', () => {
  it('runs console queries as an opaque role of the organisation, which belongs to no other role', async () => {
    const { org } = await business()
    const member = await addMember(ctx, org.businessId, { role: 'Member' })
    const response = await member.core({
      method: 'POST',
      url: '/api/ai-studio/query',
      payload: { query: 'SELECT current_user AS u, current_schema AS s, count(*) AS n FROM customers' },
    })
    expect(response.statusCode, response.body).toBe(200)
    const schema = await schemaOf(org.businessId)
    const role = consoleRoleOf(schema)
    const [[user, currentSchema, count]] = response.json().data.rows
    expect([user, currentSchema, count]).toEqual([role, consoleSchemaOf(schema), 0])
    // Neither name tells the organisation's schema (nor any part of it).
    expect(user).toMatch(/^console_[0-9a-f]{24}$/)
    expect(user).not.toContain(schema.replace(/^org_/, ''))
    const { rows } = await ctx.database.pool.query<{
      login: boolean
      super: boolean
      member_of: number
    }>(
      `SELECT r.rolcanlogin AS login, r.rolsuper AS super,
              (SELECT count(*)::int FROM pg_catalog.pg_auth_members m WHERE m.member = r.oid) AS member_of
       FROM pg_catalog.pg_roles r WHERE r.rolname = $1`,
      [role],
    )
    expect(rows).toEqual([{ login: false, super: false, member_of: 0 }])
    // The connection the console used is back to the application role and its own settings.
    const after = await ctx.database.pool.query<{ role: string; path: string; ro: string }>(
      `SELECT current_user AS role, current_setting('search_path') AS path,
              current_setting('transaction_read_only') AS ro`,
    )
    expect(after.rows[0]?.role).not.toBe(role)
    expect(after.rows[0]?.path).not.toContain(consoleSchemaOf(schema))
    expect(after.rows[0]?.ro).toBe('off')
  })

  it('replaces the role and schema of an earlier release, whose names told the schema', async () => {
    const legacy = async (schema: string) => {
      const names = { role: `cartage_console_${schema}`, schema: `${schema}_console` }
      await ctx.database.pool.query(`
        CREATE ROLE "${names.role}" NOLOGIN;
        GRANT "${names.role}" TO CURRENT_USER;
        CREATE SCHEMA "${names.schema}";
        CREATE VIEW "${names.schema}".customers AS SELECT * FROM "${schema}".customers;
        GRANT USAGE ON SCHEMA "${names.schema}" TO "${names.role}";
        GRANT SELECT ON "${names.schema}".customers TO "${names.role}";`)
      return names
    }
    const left = async (names: { role: string; schema: string }) =>
      (
        await ctx.database.pool.query(
          `SELECT rolname FROM pg_catalog.pg_roles WHERE rolname = $1
           UNION ALL SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname = $2`,
          [names.role, names.schema],
        )
      ).rows
    // Built again on the organisation's next query (its own: the process has built no surface for it yet)...
    const { core, org } = await ownerSession(ctx)
    await insertCustomer(ctx, org.businessId, { name: 'Alice' })
    const schema = await schemaOf(org.businessId)
    const names = await legacy(schema)
    const response = await core({
      method: 'POST',
      url: '/api/ai-studio/query',
      payload: { query: 'SELECT current_user, name FROM customers' },
    })
    expect(response.json().data.rows).toEqual([[consoleRoleOf(schema), 'Alice']])
    expect(await left(names)).toEqual([])
    // ...and dropped for every organisation by the migration, whether it queries again or not.
    const quiet = await business('another')
    const quietNames = await legacy(await schemaOf(quiet.org.businessId))
    await ctx.database.pool.query(dropConsoleNamesTellingTheSchema)
    expect(await left(quietNames)).toEqual([])
  })

  it('lets the role read its own console views and nothing else of any organisation', async () => {
    const a = await business()
    const b = await business('another')
    await insertCustomer(ctx, a.org.businessId, { name: 'Only A' })
    await insertCustomer(ctx, a.org.businessId, { name: 'Gone A', deleted: true })
    await insertCustomer(ctx, b.org.businessId, { name: 'Only B' })
    const schemaA = await schemaOf(a.org.businessId)
    const schemaB = await schemaOf(b.org.businessId)
    await ensureConsoleSurface(ctx.database, VIEWS, schemaA)
    await ensureConsoleSurface(ctx.database, VIEWS, schemaB)
    const roleA = consoleRoleOf(schemaA)

    const own = await asRole(
      roleA,
      `SELECT name FROM "${consoleSchemaOf(schemaA)}".customers`,
      a.org.businessId,
    )
    expect(own.rows).toEqual([{ name: 'Only A' }])
    // Without the business the application sets, the views show nothing.
    expect((await asRole(roleA, `SELECT name FROM "${consoleSchemaOf(schemaA)}".customers`)).rows).toEqual([])
    const denied = [
      `SELECT * FROM "${schemaA}".customers`,
      `SELECT * FROM "${schemaA}".settings`,
      `SELECT * FROM "${schemaB}".customers`,
      `SELECT * FROM "${consoleSchemaOf(schemaB)}".customers`,
      'SELECT * FROM global.users',
      'SELECT * FROM global.api_keys',
    ]
    for (const text of denied) expect((await asRole(roleA, text)).code, text).toBe('42501')
    // Writing through a view fails twice over: the transaction is read only and the role may only read.
    const write = await asRole(roleA, `DELETE FROM "${consoleSchemaOf(schemaA)}".customers`)
    expect(['25006', '42501']).toContain(write.code)
  })

  it("shows the role only the caller business's rows of its organisation's views, with the parser skipped", async () => {
    const { org } = await business()
    const branch = await addBusiness(ctx, org.businessId)
    await insertCustomer(ctx, org.businessId, { name: 'Head office customer' })
    await insertCustomer(ctx, branch, { name: 'Branch customer' })
    const views = consoleSchemaOf(await schemaOf(org.businessId))
    // The views themselves, not the console's CTEs in front of them, which filter by business too.
    const direct = `SELECT name FROM "${views}".customers`
    expect((await wrapped(org.businessId, direct)).rows).toEqual([['Head office customer']])
    expect((await wrapped(branch, direct)).rows).toEqual([['Branch customer']])
    // The role cannot point the views at another business.
    const moved = `SELECT pg_catalog.set_config('${CONSOLE_BUSINESS_SETTING}', '${branch}', true), name FROM "${views}".customers`
    expect((await wrapped(org.businessId, moved)).code).toBe('42501')
  })

  it('denies the wrapped statement every hidden table and the catalogue, with the parser skipped', async () => {
    const { org } = await business()
    const other = await business('another')
    await insertCustomer(ctx, org.businessId, { name: 'Mine' })
    const schema = await schemaOf(org.businessId)
    const otherSchema = await schemaOf(other.org.businessId)
    await ensureConsoleSurface(ctx.database, VIEWS, otherSchema)
    // The repository path works as such: the exposed names read the business's rows.
    expect((await wrapped(org.businessId, 'SELECT name FROM customers')).rows).toEqual([['Mine']])
    const denied = [
      // The organisation's own tables, another organisation's, and the global ones.
      `SELECT * FROM "${schema}".webhook_endpoints`,
      `SELECT * FROM "${schema}".audit_log`,
      `SELECT * FROM "${schema}".notifications`,
      `SELECT * FROM "${schema}".settings`,
      `SELECT * FROM "${schema}".customers`,
      `SELECT * FROM "${otherSchema}".customers`,
      `SELECT * FROM "${consoleSchemaOf(otherSchema)}".customers`,
      'SELECT * FROM global.users',
      'SELECT * FROM global.organizations',
      // Catalogue relations naming organisations (schemas, roles), databases, settings and sessions.
      'SELECT * FROM pg_catalog.pg_authid',
      'SELECT * FROM pg_catalog.pg_roles',
      'SELECT * FROM pg_catalog.pg_namespace',
      'SELECT * FROM pg_catalog.pg_class',
      'SELECT * FROM pg_catalog.pg_database',
      'SELECT * FROM pg_catalog.pg_settings',
      'SELECT * FROM pg_catalog.pg_stat_activity',
      'SELECT * FROM pg_catalog.pg_stat_database',
      'SELECT * FROM pg_catalog.pg_stat_user_tables',
      'SELECT * FROM pg_catalog.pg_prepared_statements',
      'SELECT * FROM pg_catalog.pg_cursors',
      'SELECT * FROM pg_catalog.pg_locks',
      'SELECT * FROM pg_catalog.pg_views',
      'SELECT * FROM pg_catalog.pg_type',
      'SELECT * FROM pg_catalog.pg_proc',
      'SELECT * FROM information_schema.schemata',
      'SELECT * FROM information_schema.tables',
      // ...and the functions behind them, or that tell the same by oid or by name.
      'SELECT * FROM pg_catalog.pg_prepared_statement()',
      'SELECT * FROM pg_catalog.pg_cursor()',
      'SELECT * FROM pg_catalog.pg_show_all_settings()',
      'SELECT * FROM pg_catalog.pg_stat_get_activity(NULL)',
      'SELECT * FROM pg_catalog.pg_lock_status()',
      "SELECT pg_catalog.current_setting('search_path')",
      "SELECT pg_catalog.set_config('search_path', 'global', true)",
      'SELECT pg_catalog.current_database()',
      'SELECT pg_catalog.version()',
      'SELECT pg_catalog.pg_backend_pid()',
      'SELECT pg_catalog.format_type(2615, NULL)',
      'SELECT pg_catalog.pg_get_viewdef(1259)',
      'SELECT pg_catalog.pg_get_userbyid(10)',
      'SELECT pg_catalog.pg_stat_get_live_tuples(1259)',
      'SELECT pg_catalog.pg_relation_size(1259)',
      `SELECT pg_catalog.to_regnamespace('${otherSchema}')`,
      "SELECT pg_catalog.has_schema_privilege('global', 'USAGE')",
      "SELECT pg_catalog.obj_description(2615, 'pg_namespace')",
      "SELECT pg_catalog.query_to_xml('SELECT 1', true, true, '')",
      'SELECT pg_catalog.pg_advisory_lock(1)',
      'SELECT pg_catalog.pg_sleep(0)',
    ]
    for (const statement of denied)
      expect((await wrapped(org.businessId, statement)).code, statement).toBe('42501')
    // The connection is whole again afterwards (each denial above was rolled back).
    expect((await wrapped(org.businessId, 'SELECT count(*)::int FROM orders')).rows).toEqual([[0]])
  })

  it('leaves a console role no catalogue relation and only general-purpose set-returning functions', async () => {
    const { org } = await business()
    const role = consoleRoleOf(await schemaOf(org.businessId))
    await ensureConsoleSurface(ctx.database, VIEWS, await schemaOf(org.businessId))
    const readable = await ctx.database.pool.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name FROM pg_catalog.pg_class c
       JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
         AND (has_table_privilege($1, c.oid, 'SELECT') OR has_any_column_privilege($1, c.oid, 'SELECT'))`,
      [role],
    )
    expect(readable.rows).toEqual([])
    const schemaUsage = await ctx.database.pool.query<{ usable: boolean }>(
      `SELECT has_schema_privilege($1, 'information_schema', 'USAGE') AS usable`,
      [role],
    )
    expect(schemaUsage.rows).toEqual([{ usable: false }])
    const sets = await ctx.database.pool.query<{ name: string }>(
      `SELECT DISTINCT p.proname AS name FROM pg_catalog.pg_proc p
       WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proretset
         AND has_function_privilege($1, p.oid, 'EXECUTE') ORDER BY 1`,
      [role],
    )
    const names = sets.rows.map((row) => row.name)
    expect(names.filter((name) => !GENERAL_SETS.test(name))).toEqual([])
    expect(names).toEqual(expect.arrayContaining(['generate_series', 'unnest', 'jsonb_each']))
  })

  it('builds the surface once when two requests race for it', async () => {
    // Its own organisation: a surface already built would make the race a no-op.
    const { org } = await ownerSession(ctx)
    const schema = await schemaOf(org.businessId)
    const fresh = { ...ctx.database }
    await Promise.all([
      ensureConsoleSurface(fresh, VIEWS, schema),
      ensureConsoleSurface(ctx.database, VIEWS, schema),
    ])
    const { rows } = await ctx.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.views WHERE table_schema = $1`,
      [consoleSchemaOf(schema)],
    )
    expect(rows[0]?.n).toBe(Object.keys(VIEWS).length)
  })
})
