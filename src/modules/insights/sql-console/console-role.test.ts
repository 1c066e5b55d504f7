import { describe, expect, it } from 'vitest'
import { insertCustomer } from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { MODULES } from '../../../apps/modules.js'
import { consoleViewsOf } from '../../../platform/module.js'
import { consoleRoleOf, consoleSchemaOf, ensureConsoleSurface } from './console-role.js'

const VIEWS = consoleViewsOf(MODULES)

const ctx = useTestContext()
const onPostgres = () => process.env.CARTAGE_TEST_DATABASE === 'postgres'

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
async function asRole(role: string, text: string): Promise<{ rows?: unknown[]; code?: string }> {
  const client = await ctx.database.pool.connect()
  try {
    await client.query('BEGIN TRANSACTION READ ONLY')
    await client.query(`SET LOCAL ROLE "${role}"`)
    return { rows: (await client.query(text)).rows }
  } catch (error) {
    return { code: (error as { code?: string }).code ?? 'unknown' }
  } finally {
    await client.query('ROLLBACK')
    client.release()
  }
}

describe.runIf(onPostgres())('the SQL console database layer on PostgreSQL (gate bypassed)', () => {
  it('runs console queries as the organisation role, which belongs to no other role', async () => {
    const { core, org } = await ownerSession(ctx)
    const response = await core({
      method: 'POST',
      url: '/api/ai-studio/query',
      payload: { query: 'SELECT current_user AS u, count(*) AS n FROM customers' },
    })
    expect(response.statusCode, response.body).toBe(200)
    const schema = await schemaOf(org.businessId)
    const role = consoleRoleOf(schema)
    expect(response.json().data.rows).toEqual([[role, 0]])
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

  it('lets the role read its own console views and nothing else of any organisation', async () => {
    const a = await ownerSession(ctx)
    const b = await ownerSession(ctx)
    await insertCustomer(ctx, a.org.businessId, { name: 'Only A' })
    await insertCustomer(ctx, a.org.businessId, { name: 'Gone A', deleted: true })
    await insertCustomer(ctx, b.org.businessId, { name: 'Only B' })
    const schemaA = await schemaOf(a.org.businessId)
    const schemaB = await schemaOf(b.org.businessId)
    await ensureConsoleSurface(ctx.database, VIEWS, schemaA)
    await ensureConsoleSurface(ctx.database, VIEWS, schemaB)
    const roleA = consoleRoleOf(schemaA)

    const own = await asRole(roleA, `SELECT name FROM "${consoleSchemaOf(schemaA)}".customers`)
    expect(own.rows).toEqual([{ name: 'Only A' }])
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

  it('hides the catalogue relations that would list other organisations', async () => {
    const { org } = await ownerSession(ctx)
    const schema = await schemaOf(org.businessId)
    await ensureConsoleSurface(ctx.database, VIEWS, schema)
    const superuser = await ctx.database.pool.query<{ s: boolean }>(
      'SELECT rolsuper AS s FROM pg_catalog.pg_roles WHERE rolname = current_user',
    )
    // Only a superuser can change catalogue rights; the migration says so and skips otherwise.
    if (!superuser.rows[0]?.s) return
    const role = consoleRoleOf(schema)
    for (const relation of [
      'pg_namespace',
      'pg_class',
      'pg_attribute',
      'pg_roles',
      'pg_auth_members',
      'pg_stat_activity',
      'pg_views',
      'pg_tables',
      'pg_rewrite',
      'pg_stat_user_tables',
      'pg_locks',
    ]) {
      const text = `SELECT * FROM pg_catalog.${relation} LIMIT 1`
      expect((await asRole(role, text)).code, relation).toBe('42501')
    }
    // information_schema shows only what the role may use: its own console views.
    const visible = await asRole(
      role,
      `SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
    )
    expect(visible.rows).toEqual([{ table_schema: consoleSchemaOf(schema) }])
  })

  it('builds the surface once when two requests race for it', async () => {
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
