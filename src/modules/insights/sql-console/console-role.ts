import { createHash } from 'node:crypto'
import type { Database } from '../../../db/database.js'
import { assertSchemaName } from '../../../db/migrator.js'
import type { ConsoleViews } from '../../../platform/module.js'

/**
 * On PostgreSQL a console query runs as its organisation's own role: a NOLOGIN role that belongs to
 * no other role and may read only the views of its organisation's console schema. The views run
 * with their owner's rights, so the role needs (and has) no right on any table of any schema.
 */
export interface ConsoleSurface {
  role: string
  schema: string
}

export const consoleRoleOf = (schema: string) => `cartage_console_${assertSchemaName(schema)}`
export const consoleSchemaOf = (schema: string) => `${assertSchemaName(schema)}_console`

/** The views of one organisation; `business_id` stays so the console can scope to the caller's business. */
function viewsSql(views: ConsoleViews, schema: string): string {
  const target = consoleSchemaOf(schema)
  return Object.entries(views)
    .map(
      ([name, table]) =>
        `DROP VIEW IF EXISTS "${target}"."${name}";\n` +
        `CREATE VIEW "${target}"."${name}" WITH (security_barrier) AS SELECT business_id, ` +
        `${table.columns.map((c) => `"${c}"`).join(', ')} FROM "${schema}"."${table.source}" WHERE ${table.filter};`,
    )
    .join('\n')
}

const versions = new WeakMap<ConsoleViews, string>()

/** Changes whenever the views change, so every schema's surface is rebuilt once after an upgrade. */
function surfaceVersion(views: ConsoleViews): string {
  let version = versions.get(views)
  if (!version) {
    version = `cartage console ${createHash('sha256').update(viewsSql(views, 'org_00000000')).digest('hex').slice(0, 16)}`
    versions.set(views, version)
  }
  return version
}

function surfaceSql(views: ConsoleViews, schema: string): string {
  const role = consoleRoleOf(schema)
  const target = consoleSchemaOf(schema)
  return `
DO $$ BEGIN
  CREATE ROLE "${role}" NOLOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
-- The application may SET ROLE to it; the role itself is a member of nothing.
GRANT "${role}" TO CURRENT_USER;
CREATE SCHEMA IF NOT EXISTS "${target}";
REVOKE ALL ON SCHEMA "${target}" FROM PUBLIC;
${viewsSql(views, schema)}
GRANT USAGE ON SCHEMA "${target}" TO "${role}";
GRANT SELECT ON ALL TABLES IN SCHEMA "${target}" TO "${role}";
COMMENT ON SCHEMA "${target}" IS '${surfaceVersion(views)}';`
}

const ready = new WeakMap<Database, Set<string>>()

/**
 * Creates (or brings up to date) the organisation's console role, schema and views. Checked once per
 * process and schema; an advisory lock keeps two processes from building the same surface at once.
 */
export async function ensureConsoleSurface(
  database: Database,
  views: ConsoleViews,
  schema: string,
): Promise<ConsoleSurface> {
  const surface = { role: consoleRoleOf(schema), schema: consoleSchemaOf(schema) }
  let done = ready.get(database)
  if (!done) {
    done = new Set()
    ready.set(database, done)
  }
  if (done.has(schema)) return surface
  const client = await database.pool.connect()
  let broken = false
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cartage-console:${schema}`])
    const current = await client.query<{ version: string | null }>(
      `SELECT d.description AS version FROM pg_catalog.pg_namespace n
       LEFT JOIN pg_catalog.pg_description d ON d.objoid = n.oid AND d.classoid = 'pg_catalog.pg_namespace'::regclass
       WHERE n.nspname = $1`,
      [surface.schema],
    )
    if (current.rows[0]?.version !== surfaceVersion(views)) await client.query(surfaceSql(views, schema))
    await client.query('COMMIT')
    done.add(schema)
    return surface
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true
    })
    throw error
  } finally {
    client.release(broken)
  }
}
