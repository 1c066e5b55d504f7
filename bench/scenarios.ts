/**
 * What the bench measures: each scenario is one real Cartage request and the SQL that request
 * runs, which the bare baseline server runs with the same parameters. Add scenarios here.
 */

/** Data created through the real API before measuring. */
export interface Seed {
  email: string
  businessId: string
  userId: string
}

export interface Scenario {
  name: string
  /** Reads are held to the goal below; writes are reported only. */
  kind: 'read' | 'write'
  cartage: {
    api: 'core' | 'global'
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
    path: (seed: Seed) => string
    headers?: Record<string, string>
    body?: (seed: Seed) => unknown
    /** Sanity check on one response before measuring, so a 404 is never benchmarked. */
    check: (json: unknown) => boolean
  }
  /**
   * Exactly the statements the Cartage route runs on its warm path, in order; `rows` is what
   * the last one returns.
   */
  baseline: { statements: Statement[]; rows: number }
}

export interface Statement {
  sql: string
  params: (seed: Seed) => unknown[]
}

export const READ_GOAL = 0.8

/**
 * security/rate-limiter.ts `RateLimiter.hit`, as Kysely sends it (whitespace included). The
 * baseline counts under its own key so the two servers never share a counter.
 */
const rateLimitHit = (key: string, windowSeconds: number): Statement => ({
  sql: `
      INSERT INTO global.rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END,
        hits = CASE WHEN r.window_start <= now() - make_interval(secs => $3) THEN 1 ELSE r.hits + 1 END
      RETURNING hits, ceil(extract(epoch FROM (window_start + make_interval(secs => $4) - now())))::int AS retry_after`,
  params: () => [key, windowSeconds, windowSeconds, windowSeconds],
})

const field = (json: unknown, key: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined

export const scenarios: Scenario[] = [
  {
    name: 'soft-check',
    kind: 'read',
    cartage: {
      api: 'global',
      method: 'GET',
      path: (seed) => `/api/organizations/soft-check?emailAddress=${encodeURIComponent(seed.email)}`,
      check: (json) => field(json, 'data') === true,
    },
    // The route's limitByIp hook, then registration.repository.ts emailExists as Kysely compiles it.
    baseline: {
      statements: [
        rateLimitHit('soft-check:ip:baseline', 60),
        {
          sql: 'select "id" from "global"."users" where lower(email) = $1',
          params: (seed) => [seed.email.trim().toLowerCase()],
        },
      ],
      rows: 1,
    },
  },
  {
    name: 'health-ready',
    kind: 'read',
    cartage: {
      api: 'core',
      method: 'GET',
      path: () => '/health/ready',
      check: (json) => field(json, 'status') === 'ok',
    },
    // health.ts after the first (migration status) probe.
    baseline: { statements: [{ sql: 'SELECT 1', params: () => [] }], rows: 1 },
  },
]
