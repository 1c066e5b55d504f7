import type pg from 'pg'
import type { Database } from '../../../db/database.js'
import { invalidField } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { type ConsoleSurface, ensureConsoleSurface } from './console-role.js'
import { checkQuery, EXPOSED, GateError } from './sql-console.gate.js'
import {
  DEFAULT_MAX_ROWS,
  type ExecuteSqlRequest,
  MAX_RESULT_BYTES,
  type SqlQueryResponse,
  type SqlSchemaResponse,
} from './sql-console.schemas.js'

const STATEMENT_TIMEOUT_MS = 5_000
/** Planner cost above which a query is refused before it runs (cross-join bombs and the like). */
export const MAX_PLAN_COST = 5_000_000
const SCHEMA_NAME = /^org_[a-z0-9_]+$/
const UUID = /^[0-9a-f-]{36}$/i

/**
 * The exposed tables become CTEs in front of the user's query: the plain names resolve to the
 * caller's business rows with the documented columns only, whatever the search_path. On
 * PostgreSQL they read the organisation's console views (all its role may read); on the embedded
 * database, which has no roles to switch to, the tables themselves with the views' filters.
 */
function wrap(auth: BusinessAuth, surface: ConsoleSurface | null, query: string, limit: number): string {
  if (!SCHEMA_NAME.test(auth.schemaName) || !UUID.test(auth.businessId))
    throw new Error('unexpected tenant identifiers')
  const ctes = Object.entries(EXPOSED).map(([name, table]) => {
    const source = surface
      ? `"${surface.schema}"."${name}" WHERE business_id = '${auth.businessId}'`
      : `"${auth.schemaName}"."${table.source}" WHERE business_id = '${auth.businessId}' AND ${table.filter}`
    return `"${name}" AS (SELECT ${table.columns.map((c) => `"${c}"`).join(', ')} FROM ${source})`
  })
  return `WITH ${ctes.join(', ')} SELECT * FROM (${query}\n) AS console_result LIMIT ${limit}`
}

const typeNames = new Map<number, string>()

async function dataTypes(client: pg.PoolClient, fields: pg.FieldDef[]): Promise<string[]> {
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

export async function executeQuery(
  database: Database,
  auth: BusinessAuth,
  body: ExecuteSqlRequest,
): Promise<SqlQueryResponse> {
  const parameters = body.parameters ?? []
  const maxRows = body.maxRows ?? DEFAULT_MAX_ROWS
  let statement: string
  try {
    statement = await checkQuery(body.query, parameters.length)
  } catch (error) {
    if (error instanceof GateError) throw invalidField('query', error.message)
    throw error
  }
  const surface = database.kind === 'postgres' ? await ensureConsoleSurface(database, auth.schemaName) : null
  const sql = wrap(auth, surface, statement, maxRows + 1)
  const started = performance.now()
  const client = await database.pool.connect()
  let broken = false
  try {
    await client.query('BEGIN TRANSACTION READ ONLY')
    // SET LOCAL ends with the transaction, so nothing reaches the next user of the connection.
    await client.query(`SET LOCAL search_path TO "${surface?.schema ?? auth.schemaName}"`)
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
    // From here the organisation's own role runs the query: it can read its console views and nothing else.
    if (surface) await client.query(`SET LOCAL ROLE "${surface.role}"`)
    const plan = await runUser(client, `EXPLAIN (FORMAT JSON) ${sql}`, parameters)
    const planRow = plan.rows[0] as [{ Plan?: { 'Total Cost'?: number } }[]] | undefined
    const cost = Number(planRow?.[0]?.[0]?.Plan?.['Total Cost'] ?? 0)
    if (cost > MAX_PLAN_COST)
      throw invalidField(
        'query',
        `the query is estimated too expensive (cost ${Math.round(cost)} > ${MAX_PLAN_COST})`,
      )
    const result = await runUser(client, sql, parameters)
    if (surface) await client.query('RESET ROLE')
    const types = await dataTypes(client, result.fields)
    let truncated = result.rows.length > maxRows
    const rows: unknown[][] = []
    let bytes = 0
    for (const row of (result.rows as unknown[][]).slice(0, maxRows)) {
      bytes += JSON.stringify(row).length
      if (bytes > MAX_RESULT_BYTES) {
        truncated = true
        break
      }
      rows.push(row)
    }
    return {
      columns: result.fields.map((f, i) => ({ name: f.name, dataType: types[i] ?? 'unknown' })),
      rows,
      rowCount: rows.length,
      truncated,
      elapsedMs: Math.round((performance.now() - started) * 100) / 100,
    }
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

/** Runs the user's SQL; a database error (timeout, bad column, division by zero) is the caller's 400. */
async function runUser(
  client: pg.PoolClient,
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
  try {
    return await client.query(config)
  } catch (error) {
    const e = error as { code?: string; message?: string }
    if (typeof e.code === 'string' && !e.code.startsWith('08') && !e.code.startsWith('XX'))
      throw invalidField('query', e.message ?? 'the query failed')
    throw error
  }
}

/** The exposed tables and their columns with the types a query sees (one catalogue read). */
export async function describeSchema(database: Database, auth: BusinessAuth): Promise<SqlSchemaResponse> {
  if (!SCHEMA_NAME.test(auth.schemaName)) throw new Error('unexpected tenant identifiers')
  const wanted = Object.values(EXPOSED).flatMap((table) =>
    table.columns.map((column) => [table.source, column]),
  )
  const { rows } = await database.pool.query<{ tbl: string; col: string; type: string }>(
    `SELECT c.relname AS tbl, a.attname AS col, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
     FROM pg_catalog.pg_attribute a
     JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped
       AND (c.relname, a.attname) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [auth.schemaName, wanted.map(([t]) => t), wanted.map(([, c]) => c)],
  )
  const types = new Map(rows.map((row) => [`${row.tbl}.${row.col}`, row.type]))
  return {
    tables: Object.entries(EXPOSED).map(([name, table]) => ({
      name,
      columns: table.columns.map((column) => ({
        name: column,
        dataType: types.get(`${table.source}.${column}`) ?? 'unknown',
      })),
    })),
  }
}
