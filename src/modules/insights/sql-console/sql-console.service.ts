import { type Database, readTarget } from '../../../db/database.js'
import { AppError, invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { ConsoleViews } from '../../../platform/module.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { inConsoleTransaction, queryStopped } from './console-connection.js'
import { type ConsoleRunner, consoleRunner } from './console-limits.js'
import { ensureConsoleSurface } from './console-role.js'
import { checkQuery, GateError } from './sql-console.gate.js'
import * as repository from './sql-console.repository.js'
import {
  DEFAULT_MAX_ROWS,
  type ExecuteSqlRequest,
  MAX_RESULT_BYTES,
  type SqlQueryResponse,
  type SqlSchemaResponse,
} from './sql-console.schemas.js'

/**
 * Planner cost above which a query is refused before it runs (cross-join bombs and the like). The
 * estimate is of the whole result, without the row limit (which would prorate it).
 */
export const MAX_PLAN_COST = 5_000_000
/** A value larger than this (as PostgreSQL holds it) is cut to this many characters of its text. */
export const MAX_VALUE_BYTES = 100_000
/** Rows fetched per round trip at most; fewer while rows are large (see nextBatch). */
const MAX_BATCH = 500

/** Runs a console query over `views` (every module's declared console views). */
export async function executeQuery(
  { database, config }: Pick<AppDeps, 'database' | 'config'>,
  views: ConsoleViews,
  auth: BusinessAuth,
  body: ExecuteSqlRequest,
): Promise<SqlQueryResponse> {
  const parameters = body.parameters ?? []
  const maxRows = body.maxRows ?? DEFAULT_MAX_ROWS
  let statement: string
  try {
    statement = await checkQuery(body.query, parameters.length, views)
  } catch (error) {
    if (error instanceof GateError) throw invalidField('query', error.message)
    throw error
  }
  const postgres = database.kind === 'postgres'
  // The console role and its views, on both databases: the second wall under the parser.
  const surface = await ensureConsoleSurface(database, views, auth.schemaName)
  const over = (outer: (query: string) => string) =>
    repository.overConsoleTables(views, auth, surface, statement, outer)
  const runner = consoleRunner(database, config)
  const release = await runner.slots.acquire(auth.schemaName)
  const started = performance.now()
  const session = {
    searchPath: surface.schema,
    role: surface.role,
    businessId: auth.businessId,
    organisationSchema: auth.schemaName,
  }
  const run = <T>(send: () => Promise<T>) => userStatement(runner, send)
  try {
    // On a streaming replica when one is set, fit and caught up (the console surface just made included).
    const target = await readTarget(database, { db: database.db, pool: runner.pool })
    return await inConsoleTransaction(
      { ...runner, pool: target.pool },
      postgres,
      session,
      async (connection) => {
        const cost = await run(() =>
          repository.planCost(connection, over(repository.wholeResult), parameters),
        )
        if (cost > MAX_PLAN_COST)
          throw invalidField(
            'query',
            `the query is estimated too expensive (cost ${Math.round(cost)} > ${MAX_PLAN_COST})`,
          )
        const fields = await run(() =>
          repository.resultColumns(connection, over(repository.columnsOnly), parameters),
        )
        const names = fields.map((f) => f.name)
        const maxValueBytes = valueLimit(names.length)
        const cursor = over(repository.cutRows(names, maxRows + 1, maxValueBytes))
        await run(() => repository.openCursor(connection, cursor, parameters))
        const { rows, truncated } = await readRows(
          (count) => run(() => repository.fetchRows(connection, count)),
          names.length,
          maxRows,
          maxValueBytes,
        )
        // The type names are read from the catalogue, which the console role may not read.
        await repository.resetRole(connection)
        const types = await repository.dataTypes(connection, fields)
        return {
          columns: fields.map((f, i) => ({ name: f.name, dataType: types[i] ?? 'unknown' })),
          rows,
          rowCount: rows.length,
          truncated,
          elapsedMs: Math.round((performance.now() - started) * 100) / 100,
        }
      },
    )
  } finally {
    release()
  }
}

/** Each value's share of the byte cap, so one row of many large values cannot be far above it. */
const valueLimit = (columns: number) =>
  Math.min(MAX_VALUE_BYTES, Math.max(1_000, Math.floor(MAX_RESULT_BYTES / Math.max(1, columns))))

/**
 * Reads the cursor in batches, applying maxRows and the byte cap as rows arrive: what is held in
 * memory is one batch, sized so that it stays near the cap. A cut value (see cutRows) stands for
 * its value, and the result says truncated.
 */
async function readRows(
  fetch: (count: number) => Promise<unknown[][]>,
  width: number,
  maxRows: number,
  maxValueBytes: number,
): Promise<{ rows: unknown[][]; truncated: boolean }> {
  const rows: unknown[][] = []
  let bytes = 0
  let widest = Math.max(1, width * maxValueBytes)
  let cut = false
  let full = false
  let batch = Math.min(maxRows + 1, Math.max(1, Math.floor(MAX_RESULT_BYTES / widest)), MAX_BATCH)
  for (;;) {
    const fetched = await fetch(batch)
    if (fetched.length > 0) widest = 1
    for (const raw of fetched) {
      if (rows.length === maxRows) {
        full = true
        break
      }
      const row = raw.slice(0, width).map((value, i) => {
        const prefix = raw[width + i]
        if (prefix === null || prefix === undefined) return value
        cut = true
        return prefix
      })
      const size = JSON.stringify(row).length
      if (bytes + size > MAX_RESULT_BYTES) {
        full = true
        break
      }
      bytes += size
      widest = Math.max(widest, size)
      rows.push(row)
    }
    if (full || fetched.length < batch) break
    const byBytes = Math.floor((MAX_RESULT_BYTES - bytes) / widest) + 1
    batch = Math.max(1, Math.min(maxRows + 1 - rows.length, byBytes, MAX_BATCH))
  }
  return { rows, truncated: full || cut }
}

/**
 * A database error of the user's SQL (bad column, division by zero) is the caller's 400; a
 * statement_timeout is `sql_query_stopped` as the embedded watchdog's is.
 */
async function userStatement<T>(runner: ConsoleRunner, send: () => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (error) {
    if (error instanceof AppError) throw error
    const e = error as { code?: string; message?: string }
    if (e.code === '57014') throw queryStopped(runner.timeoutMs)
    if (typeof e.code === 'string' && !e.code.startsWith('08') && !e.code.startsWith('XX'))
      throw invalidField('query', e.message ?? 'the query failed')
    throw error
  }
}

/** The exposed tables and their columns with the types a query sees (one catalogue read). */
export async function describeSchema(
  database: Database,
  views: ConsoleViews,
  auth: BusinessAuth,
): Promise<SqlSchemaResponse> {
  const wanted = Object.values(views).flatMap((table) =>
    table.columns.map((column) => [table.source, column] as const),
  )
  const types = await repository.columnTypes(database, auth.schemaName, wanted)
  return {
    tables: Object.entries(views).map(([name, table]) => ({
      name,
      columns: table.columns.map((column) => ({
        name: column,
        dataType: types.get(`${table.source}.${column}`) ?? 'unknown',
      })),
    })),
  }
}
