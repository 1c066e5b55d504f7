import { field, type Scenario, type Statement } from './scenario-types.js'

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
  relaxed: true,
  unchecked: [0],
})

/** Routes without a credential. */
export const publicScenarios: Scenario[] = [
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
      steps: [
        [rateLimitHit('soft-check:ip:baseline', 60)],
        [
          {
            sql: 'select "id" from "global"."users" where lower(email) = $1',
            params: (seed) => [seed.email.trim().toLowerCase()],
          },
        ],
      ],
      rows: [1, 1],
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
    baseline: { steps: [[{ sql: 'SELECT 1', params: () => [] }]], rows: [1] },
  },
]
