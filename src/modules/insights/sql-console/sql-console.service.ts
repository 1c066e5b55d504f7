import type { Database } from '../../../db/database.js'
import { invalidField } from '../../../errors.js'
import type { ConsoleViews } from '../../../platform/module.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
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

/** Planner cost above which a query is refused before it runs (cross-join bombs and the like). */
export const MAX_PLAN_COST = 5_000_000
/** Runs a console query over `views` (every module's declared console views). */
export async function executeQuery(
  database: Database,
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
  const surface = await ensureConsoleSurface(database, views, auth.schemaName)
  const sql = repository.overConsoleTables(views, auth, surface, statement, maxRows + 1)
  const started = performance.now()
  const session = { searchPath: surface.schema, role: surface.role, businessId: auth.businessId }
  return repository.inReadOnlyTransaction(database, session, async (client) => {
    const cost = await userStatement(() => repository.planCost(client, sql, parameters))
    if (cost > MAX_PLAN_COST)
      throw invalidField(
        'query',
        `the query is estimated too expensive (cost ${Math.round(cost)} > ${MAX_PLAN_COST})`,
      )
    const result = await userStatement(() => repository.runArrayQuery(client, sql, parameters))
    await repository.resetRole(client)
    const types = await repository.dataTypes(client, result.fields)
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
  })
}

/** A database error of the user's SQL (timeout, bad column, division by zero) is the caller's 400. */
async function userStatement<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const e = error as { code?: string; message?: string }
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
