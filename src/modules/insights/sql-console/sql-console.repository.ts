import type pg from 'pg'
import type { Database } from '../../../db/database.js'
import { withSchemaAffinity } from '../../../db/lane-pool.js'
import type { ConsoleViews } from '../../../platform/module.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import type { ConsoleConnection } from './console-connection.js'
import type { ConsoleSurface } from './console-role.js'

/** Tenant identifiers are spliced into the statement text, so they are checked first. */
const SCHEMA_NAME = /^org_[a-z0-9_]+$/
const UUID = /^[0-9a-f-]{36}$/i

/**
 * The exposed tables become CTEs in front of the user's query: the plain names resolve to the
 * caller's business rows with the documented columns only, whatever the search_path. They read
 * the organisation's console views, all its role may read.
 * `outer` builds the statement around the user's query (given in parentheses).
 */
export function overConsoleTables(
  views: ConsoleViews,
  auth: BusinessAuth,
  surface: ConsoleSurface,
  query: string,
  outer: (query: string) => string,
): string {
  if (!SCHEMA_NAME.test(auth.schemaName) || !UUID.test(auth.businessId))
    throw new Error('unexpected tenant identifiers')
  const ctes = Object.entries(views).map(
    ([name, table]) =>
      `"${name}" AS (SELECT ${table.columns.map((c) => `"${c}"`).join(', ')} ` +
      `FROM "${surface.schema}"."${name}" WHERE business_id = '${auth.businessId}')`,
  )
  return `WITH ${ctes.join(', ')} ${outer(`(${query}\n)`)}`
}

/** The whole result, as it would run without a row limit: what the cost check estimates. */
export const wholeResult = (query: string) => `SELECT * FROM ${query} AS console_result`

/** No rows, only the result's columns (a LIMIT 0 reads nothing). */
export const columnsOnly = (query: string) => `SELECT * FROM ${query} AS console_result LIMIT 0`

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * The rows the console returns, at most `limit`, with every value over `maxValueBytes` (its size
 * as PostgreSQL holds it) cut in the database, before it travels: column i comes back NULL and
 * column n+i holds the first `maxValueBytes` characters of its text form (NULL when not cut). The
 * columns are renamed positionally, so duplicate or odd names in the user's query do not matter.
 */
export function cutRows(names: readonly string[], limit: number, maxValueBytes: number) {
  return (query: string) => {
    if (names.length === 0) return `SELECT * FROM ${query} AS console_result LIMIT ${limit}`
    const c = names.map((_, i) => `console_result.c${i}`)
    const tooBig = (col: string) => `pg_catalog.pg_column_size(${col}) > ${maxValueBytes}`
    const values = c.map(
      (col, i) => `CASE WHEN ${tooBig(col)} THEN NULL ELSE ${col} END AS ${quoteIdent(names[i] as string)}`,
    )
    const cuts = c.map(
      (col, i) =>
        `CASE WHEN ${tooBig(col)} THEN pg_catalog.left(${col}::text, ${maxValueBytes}) END AS cut_${i}`,
    )
    const aliases = names.map((_, i) => `c${i}`).join(', ')
    return `SELECT ${[...values, ...cuts].join(', ')} FROM ${query} AS console_result(${aliases}) LIMIT ${limit}`
  }
}

/** Back to the application's role, for the catalogue reads after the user's statement. */
export async function resetRole(connection: ConsoleConnection) {
  await connection.query('RESET ROLE')
}

/** The planner's estimated total cost of the user's SQL (EXPLAIN, nothing runs). */
export async function planCost(connection: ConsoleConnection, sql: string, parameters: unknown[]) {
  const plan = await connection.queryArray(`EXPLAIN (FORMAT JSON) ${sql}`, parameters)
  const planRow = plan.rows[0] as [{ Plan?: { 'Total Cost'?: number } }[]] | undefined
  return Number(planRow?.[0]?.[0]?.Plan?.['Total Cost'] ?? 0)
}

/** The result's columns (names and types) without reading a row. */
export async function resultColumns(connection: ConsoleConnection, sql: string, parameters: unknown[]) {
  return (await connection.queryArray(sql, parameters)).fields
}

/** Opens the cursor the rows are then fetched from in batches, so limits apply as they arrive. */
export async function openCursor(connection: ConsoleConnection, sql: string, parameters: unknown[]) {
  await connection.queryArray(`DECLARE console_rows NO SCROLL CURSOR FOR ${sql}`, parameters)
}

export async function fetchRows(connection: ConsoleConnection, count: number): Promise<unknown[][]> {
  return (await connection.queryArray(`FETCH FORWARD ${count} FROM console_rows`)).rows as unknown[][]
}

const typeNames = new Map<number, string>()

/** The SQL names of the result's column types; a type is looked up once per process. */
export async function dataTypes(connection: ConsoleConnection, fields: pg.FieldDef[]): Promise<string[]> {
  const missing = fields.map((f) => f.dataTypeID).filter((id) => !typeNames.has(id))
  if (missing.length > 0) {
    const result = await connection.query<{ oid: number; name: string }>(
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
  // The schema is a parameter, not in the text: the affinity takes the statement to its cluster.
  const { rows } = await withSchemaAffinity(schemaName, () =>
    database.pool.query<{ tbl: string; col: string; type: string }>(
      `SELECT c.relname AS tbl, a.attname AS col, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
     FROM pg_catalog.pg_attribute a
     JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped
       AND (c.relname, a.attname) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
      [schemaName, wanted.map(([t]) => t), wanted.map(([, c]) => c)],
    ),
  )
  return new Map(rows.map((row) => [`${row.tbl}.${row.col}`, row.type]))
}
