import { type Kysely, sql } from 'kysely'
import type { Tables } from '../db/schema.js'
import { tooManyRequests } from '../http/errors.js'

/**
 * Fixed-window counters in the database, so every process shares them (PostgreSQL) and they
 * survive restarts. One atomic upsert per counted request.
 */
export class RateLimiter {
  private hitsSinceSweep = 0

  constructor(private readonly db: Kysely<Tables>) {}

  /** Counts one attempt against `key`; throws 429 (with Retry-After) past `limit` in the window. */
  async hit(key: string, limit: number, windowSeconds: number): Promise<void> {
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
    const row = rows[0]
    if (row && row.hits > limit) throw tooManyRequests(Math.max(1, row.retry_after))
  }
}

/** A route hook counting every request (valid or not) against the client IP: `onRequest: limitByIp(...)`. */
export function limitByIp(rateLimiter: RateLimiter, name: string, perMinute: number) {
  return async (request: { ip: string }) => rateLimiter.hit(`${name}:ip:${request.ip}`, perMinute, 60)
}
