import type pg from 'pg'
import { withSchemaAffinity } from '../../../db/lane-pool.js'
import { AppError } from '../../../errors.js'
import { type ConsoleRunner, HEAP_GROWTH_RESTART_BYTES } from './console-limits.js'
import { CONSOLE_BUSINESS_SETTING } from './console-role.js'

/** The business is spliced into a SET LOCAL, so it is checked first. */
const UUID = /^[0-9a-f-]{36}$/i

/** Where a console query runs: its search_path, the organisation's console role and the business. */
export interface ConsoleSession {
  searchPath: string
  role: string | null
  /** What the console views show (CONSOLE_BUSINESS_SETTING); without it they show nothing. */
  businessId?: string
  /**
   * The organisation's schema: its connection is taken from the cluster holding it (db/clusters.ts),
   * as none of the console's statements names it.
   */
  organisationSchema?: string
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** The query ran past its time: stopped by statement_timeout (PostgreSQL) or by the watchdog (embedded). */
export const queryStopped = (limitMs: number) => {
  const message = `the query ran longer than ${seconds(limitMs)} and was stopped`
  return new AppError(
    400,
    'sql_query_stopped',
    `The query ran longer than ${seconds(limitMs)} and was stopped.`,
    [{ field: 'query', message }],
  )
}

const EXPIRED = Symbol('expired')

/**
 * A console connection: every statement sent through it shares the query's time budget on the
 * embedded database. PGlite cannot cancel a running statement (statement_timeout needs a signal
 * that never comes inside its synchronous WASM), so when a statement has not answered by the
 * deadline the database thread is restarted, which stops it, and the query is answered 400
 * `sql_query_stopped`. The caller holds the database's only connection meanwhile, so nothing else
 * is cut off: statements queued behind it run on the new thread.
 */
export class ConsoleConnection {
  /** The watchdog stopped a statement: the connection is gone. */
  stopped = false
  private readonly deadline: number

  constructor(
    private readonly client: pg.PoolClient,
    private readonly watchdog: ConsoleRunner['watchdog'],
  ) {
    this.deadline = performance.now() + (watchdog?.limitMs ?? 0)
  }

  /** A statement as arrays of values, always in the extended protocol (the simple one would accept several). */
  queryArray(text: string, values: unknown[] = []): Promise<pg.QueryArrayResult> {
    const config = { text, values, rowMode: 'array', queryMode: 'extended' } as pg.QueryArrayConfig
    return this.guard(this.client.query(config))
  }

  query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.guard(this.client.query<R>(text, values))
  }

  private async guard<T>(sent: Promise<T>): Promise<T> {
    const watchdog = this.watchdog
    if (!watchdog) return sent
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<typeof EXPIRED>((resolve) => {
      timer = setTimeout(() => resolve(EXPIRED), Math.max(0, this.deadline - performance.now()))
    })
    try {
      const first = await Promise.race([sent, expired])
      if (first !== EXPIRED) return first
    } finally {
      clearTimeout(timer)
    }
    this.stopped = true
    // The statement fails with the connection; its error is this one.
    sent.catch(() => {})
    await watchdog.restart()
    throw queryStopped(watchdog.limitMs)
  }
}

/**
 * Runs `work` on a console connection inside a READ ONLY transaction with the console's limits,
 * and rolls it back afterwards whatever happened. From `SET LOCAL ROLE` on, the organisation's
 * own role runs the statements (on both databases): it can read its console views, which show
 * the session's business only, and nothing else. After an error without a `status`, a stopped
 * statement or a failed rollback, the connection is dropped from the pool rather than reused.
 */
export async function inConsoleTransaction<T>(
  runner: ConsoleRunner,
  postgres: boolean,
  session: ConsoleSession,
  work: (connection: ConsoleConnection) => Promise<T>,
): Promise<T> {
  const client = await (session.organisationSchema === undefined
    ? runner.pool.connect()
    : withSchemaAffinity(session.organisationSchema, () => runner.pool.connect()))
  let broken = false
  // A connection that drops while held (a restarted embedded thread) emits 'error': not a crash.
  const onError = () => {
    broken = true
  }
  client.on('error', onError)
  const connection = new ConsoleConnection(client, runner.watchdog)
  let heapBefore: number | undefined
  try {
    heapBefore = await runner.watchdog?.heapBytes()
    await connection.query('BEGIN TRANSACTION READ ONLY')
    // SET LOCAL ends with the transaction, so nothing reaches the next user of the connection.
    await connection.query(`SET LOCAL search_path TO "${session.searchPath}"`)
    await connection.query(`SET LOCAL statement_timeout = ${runner.timeoutMs}`)
    await connection.query(`SET LOCAL work_mem = '16MB'`)
    // temp_file_limit is for superusers only; a savepoint keeps a refusal from aborting the transaction.
    if (postgres) {
      await connection.query('SAVEPOINT temp_limit')
      await connection
        .query('SET LOCAL temp_file_limit = 102400')
        .then(() => connection.query('RELEASE SAVEPOINT temp_limit'))
        .catch(() => connection.query('ROLLBACK TO SAVEPOINT temp_limit'))
    }
    // Set before the role is taken: the console role can neither read nor change a setting.
    if (session.businessId && UUID.test(session.businessId))
      await connection.query(`SET LOCAL ${CONSOLE_BUSINESS_SETTING} = '${session.businessId}'`)
    if (session.role) await connection.query(`SET LOCAL ROLE "${session.role}"`)
    return await work(connection)
  } catch (error) {
    broken = !(error instanceof AppError) || connection.stopped
    throw error
  } finally {
    if (!connection.stopped) {
      try {
        await client.query('ROLLBACK')
      } catch {
        broken = true
      }
      // A value the query built (repeat('x', 400000000)) leaves the heap that large for good: a new thread hands it back.
      if (runner.watchdog && heapBefore !== undefined && !broken) {
        try {
          const grown = (await runner.watchdog.heapBytes()) - heapBefore
          if (grown > HEAP_GROWTH_RESTART_BYTES) {
            await runner.watchdog.restart()
            broken = true
          }
        } catch {
          broken = true
        }
      }
    }
    // A broken client keeps the listener: it may still report its end.
    if (!broken) client.off('error', onError)
    client.release(broken)
  }
}
