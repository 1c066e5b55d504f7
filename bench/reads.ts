/** A Core API read measured with either credential: `<read>-bearer` and `<read>-apikey`. */
import { field, type Scenario, type Seed, type Statement } from './scenario-types.js'
import { apiKeyLookup } from './tenant-sql.js'

export interface Read {
  name: string
  path: (seed: Seed) => string
  check: (json: unknown) => boolean
  steps: Statement[][]
  rows: number[]
  /** The response the bare route sends, from the rows of its last statement (the same JSON as Cartage). */
  respond?: (rows: Record<string, unknown>[]) => unknown
  latencyGoalMs?: number
}

/**
 * The two credentials. A warm bearer request runs no authentication statement: the verified token
 * is cached until it expires and the session state for 1 s (security/authenticator.ts). The
 * baseline looks the API key up on every request, as Cartage does whenever its key cache is not
 * live (the cache lives on PostgreSQL's LISTEN/NOTIFY); where Cartage's cache is live the
 * comparison favours Cartage by that one statement.
 */
const credentials = {
  bearer: {
    headers: (seed: Seed) => ({
      authorization: `Bearer ${seed.accessToken}`,
      'x-business-id': seed.businessId,
    }),
    auth: [] as Statement[][],
    rows: [] as number[],
  },
  apikey: {
    headers: (seed: Seed) => ({ 'x-dispatch-api-key': seed.apiKey }),
    auth: [[apiKeyLookup]],
    rows: [1],
  },
}

export const bearerHeaders = credentials.bearer.headers
export const apiKeyHeaders = credentials.apikey.headers

export function withEitherCredential(reads: readonly Read[]): Scenario[] {
  return reads.flatMap((read) =>
    (['bearer', 'apikey'] as const).map((kind) => {
      const respond = read.respond
      return {
        name: `${read.name}-${kind}`,
        kind: 'read' as const,
        ...(read.latencyGoalMs ? { latencyGoalMs: read.latencyGoalMs } : {}),
        cartage: {
          api: 'core' as const,
          method: 'GET' as const,
          path: read.path,
          headers: credentials[kind].headers,
          check: read.check,
        },
        baseline: {
          steps: [...credentials[kind].auth, ...read.steps],
          rows: [...credentials[kind].rows, ...read.rows],
          ...(respond
            ? { respond: (results: Record<string, unknown>[][]) => respond(results.at(-1) ?? []) }
            : {}),
        },
      }
    }),
  )
}

export const hasData = (json: unknown) =>
  typeof field(json, 'data') === 'object' && field(json, 'data') !== null
export const listOf = (length: number) => (json: unknown) => {
  const data = field(json, 'data')
  return Array.isArray(data) && data.length === length
}
