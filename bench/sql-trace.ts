import { appendFileSync, readFileSync } from 'node:fs'
import pg from 'pg'

/** One statement as it went to the driver: text and parameters (Buffers and Dates as JSON shows them). */
export interface TracedStatement {
  sql: string
  params: unknown[]
  /** Sent through the relaxed pool (`synchronous_commit=off`, rate-limit counters). */
  relaxed?: true
}

const isRelaxed = (client: pg.Client): boolean => {
  const options = (client as unknown as { connectionParameters?: { options?: unknown } }).connectionParameters
    ?.options
  return typeof options === 'string' && options.includes('synchronous_commit=off')
}

/**
 * Appends every statement any `pg` client sends (Kysely's, the pool's, begin/commit) to `file`,
 * one JSON line each, synchronously so the order is the order of sending. For capturing only:
 * the bench never measures with it on.
 */
export function traceSql(file: string) {
  const original = pg.Client.prototype.query
  const traced = function (this: pg.Client, ...args: unknown[]): unknown {
    const [first, values] = args
    const sql = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text
    if (typeof sql === 'string') {
      const params = Array.isArray(values) ? values : []
      const line: TracedStatement = isRelaxed(this) ? { sql, params, relaxed: true } : { sql, params }
      appendFileSync(file, `${JSON.stringify(line)}\n`)
    }
    return Reflect.apply(original, this, args)
  }
  pg.Client.prototype.query = traced as typeof original
}

/** The statements traced into `file` after the first `skip` lines. */
export function readTrace(file: string, skip = 0): TracedStatement[] {
  let text = ''
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .slice(skip)
    .map((line) => JSON.parse(line) as TracedStatement)
}
