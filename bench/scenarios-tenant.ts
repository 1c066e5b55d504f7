import { paged, single } from '../src/http/envelopes.js'
import { toCustomer } from '../src/modules/customers/customers/customers.read.js'
import type { CustomerRow } from '../src/modules/customers/customers/customers.repository.js'
import type { BusinessRow } from '../src/modules/organisation/business/business.repository.js'
import { toBusinessResponse } from '../src/modules/organisation/business/business.service.js'
import { field, type Scenario, type Seed, type Statement } from './scenario-types.js'
import { apiKeyLookup, findBusiness, findCustomer, listCustomers } from './tenant-sql.js'
import { createCustomerSteps, NEW_CUSTOMER } from './write-sql.js'

const PAGE_SIZE = 20

/**
 * The two credentials. A warm bearer request runs no authentication statement: the verified token
 * is cached until it expires and the session state for 1 s (security/authenticator.ts); the one
 * refresh a second per process is amortised over ~1,000 requests and left out of the baseline.
 * An API key is looked up on every request, so its baseline starts with that lookup (the
 * `lastUsedAt` write, at most once a minute per key and process, is left out).
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

const hasData = (json: unknown) => typeof field(json, 'data') === 'object' && field(json, 'data') !== null
const listOf = (length: number) => (json: unknown) => {
  const data = field(json, 'data')
  return Array.isArray(data) && data.length === length
}

interface Read {
  name: string
  path: (seed: Seed) => string
  check: (json: unknown) => boolean
  steps: Statement[][]
  rows: number[]
  /** The response the bare route sends, from the rows of its last statement (the same JSON as Cartage). */
  respond: (rows: Record<string, unknown>[]) => unknown
}

const reads: Read[] = [
  {
    name: 'business',
    path: () => '/api/business/my-business',
    check: hasData,
    steps: [[findBusiness]],
    rows: [1],
    respond: (rows) => single('core', toBusinessResponse(rows[0] as unknown as BusinessRow)),
  },
  {
    name: 'customer',
    path: (seed) => `/api/v1/Customers/${seed.customerId}`,
    check: hasData,
    // The row with its group, contacts and attachments: one statement.
    steps: [[findCustomer((seed) => seed.customerId)]],
    rows: [1],
    respond: (rows) => single('core', toCustomer(rows[0] as unknown as CustomerRow)),
  },
  {
    name: 'customers',
    path: () => `/api/v1/Customers?PageSize=${PAGE_SIZE}`,
    check: listOf(PAGE_SIZE),
    // The page with its total and each customer's children: one statement.
    steps: [[listCustomers(PAGE_SIZE)]],
    rows: [PAGE_SIZE],
    respond: (rows) =>
      paged(
        'core',
        rows.map((row) => toCustomer(row as unknown as CustomerRow)),
        Number(rows[0]?.total ?? 0),
        {
          page: 1,
          pageSize: PAGE_SIZE,
        },
      ),
  },
]

/** Each read with either credential: `<read>-bearer` and `<read>-apikey`. */
const readScenarios: Scenario[] = reads.flatMap((read) =>
  (['bearer', 'apikey'] as const).map((kind) => ({
    name: `${read.name}-${kind}`,
    kind: 'read' as const,
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
      respond: (results) => read.respond(results.at(-1) ?? []),
    },
  })),
)

const writeScenario: Scenario = {
  name: 'create-customer-bearer',
  kind: 'write',
  cartage: {
    api: 'core',
    method: 'POST',
    path: () => '/api/v1/Customers',
    headers: credentials.bearer.headers,
    body: () => NEW_CUSTOMER,
    check: hasData,
  },
  baseline: {
    steps: createCustomerSteps,
    oneConnection: true,
    rows: [0, 1, 0, 0, 1, 0],
    respond: (results) => single('core', toCustomer(results[4]?.[0] as unknown as CustomerRow)),
  },
}

/** Authenticated routes acting in the seeded business (Core API). */
export const tenantScenarios: Scenario[] = [...readScenarios, writeScenario]
