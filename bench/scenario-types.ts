/** The shapes the bench's scenarios, seed and baseline server share. */

/** Data created through the real API before measuring (bench/seed.ts). */
export interface Seed {
  email: string
  businessId: string
  userId: string
  /** Owner's access token from POST /api/auth/login. */
  accessToken: string
  /** API key from POST /api/auth/tokens for `businessId`. */
  apiKey: string
  /** One customer created through POST /api/v1/Customers. */
  customerId: string
  /** Ids of the first page of GET /api/v1/Customers?PageSize=20, in the order Cartage lists them. */
  pageIds: string[]
}

/**
 * The seed plus what only the database knows, looked up once at start-up (bench/resolve-seed.ts):
 * the organisation's schema and the stored HMAC digest of the API key.
 */
export interface ResolvedSeed extends Seed {
  schemaName: string
  apiKeyHash: Buffer
}

/** Values one request makes for itself (Cartage makes them per request; so does the baseline). */
export interface Fresh {
  /** The n-th new id of this request (stable within the request). */
  id(n: number): string
  now: Date
  /** Rows of the last statement of the previous step (e.g. a RETURNING value used next). */
  previous: readonly Record<string, unknown>[]
  /** Rows of every statement sent so far in this request, in order. */
  results: readonly (readonly Record<string, unknown>[])[]
  /** How many requests this route answered before this one (a sequential scenario's next record). */
  serial: number
}

export interface Statement {
  /** Prepared under this name on each connection (the baseline's statements). */
  name?: string
  /** Text as Cartage sends it; a function where it names the organisation's schema. */
  sql: string | ((seed: ResolvedSeed) => string)
  params: (seed: ResolvedSeed, fresh: Fresh) => unknown[]
  /** Parameter positions that differ on purpose (the baseline's own rate-limit key); not compared. */
  unchecked?: number[]
  /** Sent, as by Cartage, on the small pool whose commits do not wait for the disk (PostgreSQL only). */
  relaxed?: true
}

export interface Scenario {
  name: string
  /**
   * The shortest round for this scenario (BENCH_SECONDS when longer): a write that serialises on
   * one row answers about ten a second, too few in a 2 s round for a ratio that means anything.
   */
  minRoundSeconds?: number
  /**
   * Connections for this scenario (BENCH_CONNECTIONS otherwise): a write whose requests queue on
   * the same row locks gains nothing from more, and a long queue would pass the client's timeout.
   */
  connections?: number
  /** A p50 goal for one request at a time (latency, not throughput): measured at 1 connection too. */
  latencyGoalMs?: number
  /** Reads are held to READ_GOAL, writes to WRITE_GOAL (bench/report.ts). */
  kind: 'read' | 'write'
  cartage: {
    api: 'core' | 'global'
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
    /** With `sequential`, the n-th request's path (n from 0); otherwise every request's. */
    path: (seed: Seed, n: number) => string
    /**
     * Each request acts on a record of its own (a write that can happen once per record, such as
     * confirming a draft order): the load generator asks `path` for the next one per request.
     */
    sequential?: true
    headers?: (seed: Seed) => Record<string, string>
    body?: (seed: Seed) => unknown
    /** Sanity check on one response before measuring, so a 404 is never benchmarked (JSON parsed, else the text). */
    check: (json: unknown) => boolean
  }
  /**
   * What a careful engineer writes by hand for this route: the fewest statements that give the
   * same JSON (one for an item or a page), prepared.
   */
  baseline: {
    /** In order; the statements of one step are sent together, as Cartage's Promise.all does. */
    steps: Statement[][]
    /**
     * Every step on one pooled connection: a transaction (begin and commit are statements). A step's
     * statements then go one after another, as Kysely queues them on a transaction's connection.
     */
    oneConnection?: boolean
    /** Rows each statement returns, in order: a wrong parameter shows up as a 0. */
    rows: number[]
    /** The JSON the bare route answers, built from every statement's rows; `{ results }` without. */
    respond?: (results: Record<string, unknown>[][]) => unknown
    /** The answer's media type when `respond` gives text that is not JSON (a page). */
    contentType?: string
  }
}

export const sqlOf = (statement: Statement, seed: ResolvedSeed): string =>
  typeof statement.sql === 'string' ? statement.sql : statement.sql(seed)

export const field = (json: unknown, key: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined
