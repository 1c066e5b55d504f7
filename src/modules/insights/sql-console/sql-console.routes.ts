import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { type CartageModule, type ConsoleViews, consoleViewsOf } from '../../../platform/module.js'
import { MAX_SERIES_ROWS } from './sql-console.gate.js'
import {
  DEFAULT_MAX_ROWS,
  ExecuteSqlRequest,
  MAX_RESULT_BYTES,
  MAX_ROWS,
  SqlQueryResponse,
  SqlSchemaResponse,
} from './sql-console.schemas.js'
import { describeSchema, executeQuery, MAX_PLAN_COST, MAX_VALUE_BYTES } from './sql-console.service.js'

const VIEW = ['Insights', 'View'] as const

const limits = (views: ConsoleViews) =>
  `Read-only: exactly one SELECT (WITH allowed, not recursive; no SELECT INTO, no FOR UPDATE/SHARE; the only ` +
  `function in FROM is generate_series(start, stop[, step]) with whole-number literals and at most ` +
  `${MAX_SERIES_ROWS} values), checked with the PostgreSQL parser; a syntax error is a 400 with its position. ` +
  `Only allow-listed functions (aggregates, window, maths, string, date/time, JSON, conditional) and only the ` +
  `exposed tables (${Object.keys(views).join(', ')}, see GET /api/ai-studio/schema) may be named, unqualified; ` +
  `anything else is a 400 naming it. The tables show the caller's business rows only, without deleted or archived ` +
  `ones. The query runs as the organisation's own database role (on both databases), which may read only its ` +
  `organisation's console views, showing the caller's business only. Runs in a READ ONLY transaction with search_path fixed, statement_timeout and ` +
  `bounded work_mem, rolled back afterwards. A plan costing more than ${MAX_PLAN_COST} (EXPLAIN estimate of the ` +
  `whole result) is refused before it runs. Rows are read in batches and capped by maxRows (default ` +
  `${DEFAULT_MAX_ROWS}, at most ${MAX_ROWS}) and by about ${MAX_RESULT_BYTES} bytes; a value over ` +
  `${MAX_VALUE_BYTES} bytes is cut to its first ${MAX_VALUE_BYTES} characters; truncated tells when rows or values ` +
  `were cut. Parameters bind to $1..$n. A query that runs past its time (on the embedded database, which cannot ` +
  `cancel a statement, its thread is restarted) is a 400 sql_query_stopped. Console queries run on connections of ` +
  `their own, a few per process and one per organisation at a time: one that finds none free waits up to a second, ` +
  `then gets 429 sql_console_busy with Retry-After.`

/** Ad-hoc read-only SQL over the caller's business data (M11 View), through every module's console views. */
export function registerSqlConsoleRoutes(app: HttpApp, deps: AppDeps, modules: readonly CartageModule[]) {
  const { database } = deps
  const views = consoleViewsOf(modules)
  const LIMITS = limits(views)
  app.post(
    '/api/ai-studio/query',
    operation(VIEW, {
      operationId: 'ExecuteQuery',
      summary: 'Run a read-only SQL query over the business tables',
      description: LIMITS,
      tags: ['SqlConsole'],
      body: ExecuteSqlRequest,
      response: SingleResult('core', SqlQueryResponse),
      errors: [400, 429],
    }),
    async (request) => single('core', await executeQuery(deps, views, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/ai-studio/schema',
    operation(VIEW, {
      operationId: 'GetQuerySchema',
      summary: 'The tables and columns the SQL console may query',
      description: `A stable, documented surface: these names and columns only. ${LIMITS}`,
      tags: ['SqlConsole'],
      response: SingleResult('core', SqlSchemaResponse),
      errors: [400],
    }),
    async (request) => single('core', await describeSchema(database, views, businessAuthOf(request))),
  )
}
