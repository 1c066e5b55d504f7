import type pg from 'pg'
import type { Database } from '../../../db/database.js'
import type { ConsoleViews } from '../../../platform/module.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { CONSOLE_BUSINESS_SETTING, type ConsoleSurface } from './console-role.js'

export type ConsoleConnection = pg.PoolClient

/** Tenant identifiers are spliced into the statement text, so they are checked first. */
const SCHEMA_NAME = /^org_[a-z0-9_]+$/
const UUID = /^[0-9a-f-]{36}$/i

/**
 * The exposed tables become CTEs in front of the user's query: the plain names resolve to the
 * caller's business rows with the documented columns only, whatever the search_path. They read
 * the organisation's console views, all its role may read.
 */
export function overConsoleTables(
  views: ConsoleViews,
  auth: BusinessAuth,
  surface: ConsoleSurface,
  query: string,
  limit: number,
): string {
  if (!SCHEMA_NAME.test(auth.schemaName) || !UUID.test(auth.businessId))
    throw new Error('unexpected tenant identifiers')
  const ctes = Object.entries(views).map(
    ([name, table]) =>
      `"${name}" AS (SELECT ${table.columns.map((c) => `"${c}"`).join(', ')} ` +
      `FROM "${surface.schema}"."${name}" WHERE business_id = '${auth.businessId}')`,
  )
  return `WITH ${ctes.join(', ')} SELECT * FROM (${query}\n) AS console_result LIMIT ${limit}`
}

const STATEMENT_TIMEOUT_MS = 5_000

/** Where a console query runs: its search_path, the organisation's console role and the business. */
export interface ConsoleSession {
  searchPath: string
  role: string | null
  /** What the console views show (CONSOLE_BUSINESS_SETTING); without it they show nothing. */
  businessId?: string
}

/**
 * Runs `work` on a pooled connection inside a READ ONLY transaction with the console's limits, and
 * rolls it back afterwards whatever happened. From `SET LOCAL ROLE` on, the organisation's own role
 * runs the statements: it can read its console views and nothing else. After an error without a
 * `statusCode`, or a failed rollback, the connection is dropped from the pool rather than reused.
 */
export async function inReadOnlyTransaction<T>(
  database: Database,
  session: ConsoleSession,
  work: (client: ConsoleConnection) => Promise<T>,
): Promise<T> {
  const client = await database.pool.connect()
  let broken = false
  try {
    await client.query('BEGIN TRANSACTION READ ONLY')
    // SET LOCAL ends with the transaction, so nothing reaches the next user of the connection.
    await client.query(`SET LOCAL search_path TO "${session.searchPath}"`)
    await client.query(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`)
    await client.query(`SET LOCAL work_mem = '16MB'`)
    // temp_file_limit is for superusers only; a savepoint keeps a refusal from aborting the transaction.
    if (database.kind === 'postgres') {
      await client.query('SAVEPOINT temp_limit')
      await client
        .query('SET LOCAL temp_file_limit = 102400')
        .then(() => client.query('RELEASE SAVEPOINT temp_limit'))
        .catch(() => client.query('ROLLBACK TO SAVEPOINT temp_limit'))
    }
    if (session.businessId && UUID.test(session.businessId))
      await client.query(`SET LOCAL ${CONSOLE_BUSINESS_SETTING} = '${session.businessId}'`)
    if (session.role) await client.query(`SET LOCAL ROLE "${session.role}"`)
    return await work(client)
  } catch (error) {
    broken = !(error && typeof error === 'object' && 'statusCode' in error)
    throw error
  } finally {
    try {
      await client.query('ROLLBACK')
    } catch {
      broken = true
    }
    client.release(broken)
  }
}

/** Back to the application's role, for the catalogue reads after the user's statement. */
export async function resetRole(client: ConsoleConnection) {
  await client.query('RESET ROLE')
}

/** Runs the user's SQL, rows as arrays. */
export async function runArrayQuery(
  client: ConsoleConnection,
  sql: string,
  parameters: unknown[],
): Promise<pg.QueryArrayResult> {
  // Extended protocol even without parameters: the simple protocol would accept several statements.
  const config = {
    text: sql,
    values: parameters,
    rowMode: 'array',
    queryMode: 'extended',
  } as pg.QueryArrayConfig
  return client.query(config)
}

/** The planner's estimated total cost of the user's SQL (EXPLAIN, nothing runs). */
export async function planCost(client: ConsoleConnection, sql: string, parameters: unknown[]) {
  const plan = await runArrayQuery(client, `EXPLAIN (FORMAT JSON) ${sql}`, parameters)
  const planRow = plan.rows[0] as [{ Plan?: { 'Total Cost'?: number } }[]] | undefined
  return Number(planRow?.[0]?.[0]?.Plan?.['Total Cost'] ?? 0)
}

const typeNames = new Map<number, string>()

/** The SQL names of the result's column types; a type is looked up once per process. */
export async function dataTypes(client: ConsoleConnection, fields: pg.FieldDef[]): Promise<string[]> {
  const missing = fields.map((f) => f.dataTypeID).filter((id) => !typeNames.has(id))
  if (missing.length > 0) {
    const result = await client.query<{ oid: number; name: string }>(
      'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])',
      [missing],
    )
    for (const row of result.rows) typeNames.set(row.oid, row.name)
  }
  return fields.map((f) => typeNames.get(f.dataTypeID) ?? 'unknown')
}

/** The types of the given (table, column) pairs of a schema, keyed `table.column` (one catalogue read). */
export async function columnTypes(
  database: Database,
  schemaName: string,
  wanted: readonly (readonly [string, string])[],
): Promise<Map<string, string>> {
  if (!SCHEMA_NAME.test(schemaName)) throw new Error('unexpected tenant identifiers')
  const { rows } = await database.pool.query<{ tbl: string; col: string; type: string }>(
    `SELECT c.relname AS tbl, a.attname AS col, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
     FROM pg_catalog.pg_attribute a
     JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped
       AND (c.relname, a.attname) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [schemaName, wanted.map(([t]) => t), wanted.map(([, c]) => c)],
  )
  return new Map(rows.map((row) => [`${row.tbl}.${row.col}`, row.type]))
}
