import { createHash } from 'node:crypto'
import type { Database } from '../../../db/database.js'
import { withSchemaAffinity } from '../../../db/lane-pool.js'
import { assertSchemaName } from '../../../db/migrator.js'
import type { ConsoleViews } from '../../../platform/module.js'

/**
 * A console query runs as its organisation's own role (on PostgreSQL and on the embedded database
 * alike): a NOLOGIN role that belongs to no other role and may read only the views of its
 * organisation's console schema. The views run with their owner's rights, so the role needs (and
 * has) no right on any table of any schema.
 */
export interface ConsoleSurface {
  role: string
  schema: string
}

/**
 * The role and the console schema share one opaque name: a query reads it back (`current_user`,
 * `current_schema`), so it must not name the organisation's schema.
 */
const opaqueName = (schema: string) =>
  `console_${createHash('sha256')
    .update(`cartage console of ${assertSchemaName(schema)}`)
    .digest('hex')
    .slice(0, 24)}`
export const consoleRoleOf = opaqueName
export const consoleSchemaOf = opaqueName

/** The names of earlier releases, which named the schema; replaced on the organisation's next query. */
const legacyRoleOf = (schema: string) => `cartage_console_${assertSchemaName(schema)}`
const legacySchemaOf = (schema: string) => `${assertSchemaName(schema)}_console`

/**
 * The business a console statement is for: the application sets it (`SET LOCAL`) in the console's
 * transaction, before it takes the console role, which can neither read nor change a setting.
 */
export const CONSOLE_BUSINESS_SETTING = 'cartage.console_business'

/**
 * The views of one organisation, each showing the rows of the business named by the setting only
 * (none when it is not set), so the role reaches no other business's rows whatever SQL it runs.
 * The function runs as its owner: the console role may not call `current_setting` itself.
 */
function viewsSql(exposed: ConsoleViews, schema: string): string {
  const target = consoleSchemaOf(schema)
  const views = Object.entries(exposed).map(
    ([name, table]) =>
      `DROP VIEW IF EXISTS "${target}"."${name}";\n` +
      `CREATE VIEW "${target}"."${name}" WITH (security_barrier) AS SELECT business_id, ` +
      `${table.columns.map((c) => `"${c}"`).join(', ')} FROM "${schema}"."${table.source}" ` +
      // A subquery, so the function runs once per statement rather than once per row.
      `WHERE ${table.filter} AND business_id = (SELECT "${target}".console_business());`,
  )
  return `
CREATE OR REPLACE FUNCTION "${target}".console_business() RETURNS uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
  AS $fn$ SELECT nullif(current_setting('${CONSOLE_BUSINESS_SETTING}', true), '')::uuid $fn$;
REVOKE ALL ON FUNCTION "${target}".console_business() FROM PUBLIC;
${views.join('\n')}`
}

const versions = new WeakMap<ConsoleViews, string>()

/** Changes whenever the views change, so every schema's surface is rebuilt once after an upgrade. */
function surfaceVersion(exposed: ConsoleViews): string {
  let version = versions.get(exposed)
  if (!version) {
    const digest = createHash('sha256').update(viewsSql(exposed, 'org_00000000')).digest('hex')
    version = `cartage console ${digest.slice(0, 16)}`
    versions.set(exposed, version)
  }
  return version
}

function surfaceSql(exposed: ConsoleViews, schema: string): string {
  const role = consoleRoleOf(schema)
  const target = consoleSchemaOf(schema)
  return `
-- The surface of an earlier release, under names that told the organisation's schema.
DROP SCHEMA IF EXISTS "${legacySchemaOf(schema)}" CASCADE;
DO $$ BEGIN
  DROP ROLE IF EXISTS "${legacyRoleOf(schema)}";
-- Still granted something in another database of the cluster: it can reach nothing here any more.
EXCEPTION WHEN dependent_objects_still_exist THEN NULL;
END $$;
DO $$ BEGIN
  CREATE ROLE "${role}" NOLOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
-- The application may SET ROLE to it; the role itself is a member of nothing.
GRANT "${role}" TO CURRENT_USER;
CREATE SCHEMA IF NOT EXISTS "${target}";
REVOKE ALL ON SCHEMA "${target}" FROM PUBLIC;
${viewsSql(exposed, schema)}
GRANT USAGE ON SCHEMA "${target}" TO "${role}";
GRANT SELECT ON ALL TABLES IN SCHEMA "${target}" TO "${role}";
GRANT EXECUTE ON FUNCTION "${target}".console_business() TO "${role}";
COMMENT ON SCHEMA "${target}" IS '${surfaceVersion(exposed)}';`
}

const ready = new WeakMap<Database, Set<string>>()

/**
 * Creates (or brings up to date) the organisation's console role, schema and views. Checked once per
 * process and schema; an advisory lock keeps two processes from building the same surface at once.
 */
export async function ensureConsoleSurface(
  database: Database,
  exposed: ConsoleViews,
  schema: string,
): Promise<ConsoleSurface> {
  const surface = { role: consoleRoleOf(schema), schema: consoleSchemaOf(schema) }
  let done = ready.get(database)
  if (!done) {
    done = new Set()
    ready.set(database, done)
  }
  if (done.has(schema)) return surface
  // Taken from the cluster holding the organisation's schema: the first statements do not name it.
  const client = await withSchemaAffinity(schema, () => database.pool.connect())
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
    if (current.rows[0]?.version !== surfaceVersion(exposed)) await client.query(surfaceSql(exposed, schema))
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
