import { type Kysely, sql } from 'kysely'
import type { Tables } from '../db/tables.js'
import { tooManyRequests } from '../errors.js'

/**
 * Fixed-window counters in the database, so every process shares them (PostgreSQL) and they
 * survive restarts. One atomic upsert per counted request.
 */
export class RateLimiter {
  private hitsSinceSweep = 0

  constructor(private readonly db: Kysely<Tables>) {}

  /** Counts one attempt against `key`; throws 429 (with Retry-After) past `limit` in the window. */
  async hit(key: string, limit: number, windowSeconds: number): Promise<void> {
    const row = await this.count(key, windowSeconds)
    if (row && row.hits > limit) throw tooManyRequests(Math.max(1, row.retry_after))
  }

  /** Counts one event against `key` and answers the count in the current window. */
  async count(
    key: string,
    windowSeconds: number,
  ): Promise<{ hits: number; retry_after: number } | undefined> {
    const { rows } = await sql<{ hits: number; retry_after: number }>`
      INSERT INTO global.rate_limits AS r (key, window_start, hits) VALUES (${key}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN r.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE r.window_start END,
        hits = CASE WHEN r.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE r.hits + 1 END
      RETURNING hits, ceil(extract(epoch FROM (window_start + make_interval(secs => ${windowSeconds}) - now())))::int AS retry_after`.execute(
      this.db,
    )
    if (++this.hitsSinceSweep >= 1000) {
      this.hitsSinceSweep = 0
      await sql`DELETE FROM global.rate_limits WHERE window_start < now() - interval '1 day'`.execute(this.db)
    }
    return rows[0]
  }

  /** The counts of `keys` in their current windows, without counting anything; absent keys are 0. */
  async peek(keys: readonly string[], windowSeconds: number): Promise<Map<string, Window>> {
    const rows = await this.db
      .selectFrom('global.rate_limits')
      .select([
        'key',
        'hits',
        sql<number>`ceil(extract(epoch FROM (window_start + make_interval(secs => ${windowSeconds}) - now())))::int`.as(
          'retry_after',
        ),
      ])
      .where('key', 'in', keys)
      .where('window_start', '>', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
      .execute()
    return new Map(rows.map((r) => [r.key, { hits: r.hits, retryAfterSeconds: Math.max(1, r.retry_after) }]))
  }

  /** Forgets `key` (e.g. a pair's failures after a successful sign-in). */
  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('global.rate_limits').where('key', '=', key).execute()
  }
}

export interface Window {
  hits: number
  retryAfterSeconds: number
}

/** A route hook counting every request (valid or not) against the client IP: `onRequest: limitByIp(...)`. */
export function limitByIp(rateLimiter: RateLimiter, name: string, perMinute: number) {
  return async (request: { ip: string }) => rateLimiter.hit(`${name}:ip:${request.ip}`, perMinute, 60)
}

/**
 * A limit for all callers together, whatever their addresses (a flood from many addresses, behind
 * a trusted proxy, passes every per-address limit): past `perHour` in the hour, 429 with
 * Retry-After, and one warning for the operator in each window in which it is reached. Counted in
 * the process (no database write per request, and nothing to share or clean up): with several
 * processes behind a balancer each allows `perHour`.
 */
export function limitInstance(name: string, perHour: number, log: (message: string) => void) {
  const windowMs = 3_600_000
  let windowStart = 0
  let hits = 0
  let warned = false
  return async () => {
    const now = Date.now()
    if (now - windowStart >= windowMs) {
      windowStart = now
      hits = 0
      warned = false
    }
    if (++hits <= perHour) return
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))
    if (!warned) {
      warned = true
      log(
        `${name}: the limit of ${perHour} an hour for all callers is reached; refused for ${retryAfterSeconds} s`,
      )
    }
    throw tooManyRequests(retryAfterSeconds)
  }
}
