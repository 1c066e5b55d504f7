import { readFileSync, writeFileSync } from 'node:fs'
import pg from 'pg'

/** When one statement was handed to the driver and when its result came back (process.hrtime, ns). */
export interface TimedStatement {
  sql: string
  sentAt: number
  doneAt: number
}

const now = () => Number(process.hrtime.bigint())

/**
 * Records, in memory, when every `pg` statement is sent and answered, and writes them to `file`
 * as JSON when the process exits. hrtime is CLOCK_MONOTONIC, shared by every process on the
 * machine, so bench/phases.ts can line the statements up with its own request times.
 */
export function timeSql(file: string) {
  const timed: TimedStatement[] = []
  const original = pg.Client.prototype.query
  const wrapped = function (this: pg.Client, ...args: unknown[]): unknown {
    const first = args[0]
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text
    const entry: TimedStatement = { sql: String(text).slice(0, 80), sentAt: now(), doneAt: 0 }
    timed.push(entry)
    const done = () => {
      entry.doneAt = now()
    }
    // pg-pool's query() passes a callback; Kysely awaits the returned promise.
    const callback = args.at(-1)
    if (typeof callback === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done()
        return Reflect.apply(callback, undefined, results)
      }
      return Reflect.apply(original, this, args)
    }
    const result: unknown = Reflect.apply(original, this, args)
    if (result instanceof Promise) result.then(done, done)
    return result
  }
  pg.Client.prototype.query = wrapped as typeof original
  process.once('exit', () => writeFileSync(file, JSON.stringify(timed)))
}

export const readTimes = (file: string): TimedStatement[] =>
  JSON.parse(readFileSync(file, 'utf8')) as TimedStatement[]
