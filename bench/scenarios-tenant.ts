import { paged, single } from '../src/http/envelopes.js'
import { toCustomer } from '../src/modules/customers/customers/customers.read.js'
import type { CustomerRow } from '../src/modules/customers/customers/customers.repository.js'
import type { BusinessRow } from '../src/modules/organisation/business/business.repository.js'
import { toBusinessResponse } from '../src/modules/organisation/business/business.service.js'
import { apiKeyHeaders, bearerHeaders, hasData, listOf, type Read, withEitherCredential } from './reads.js'
import type { Scenario } from './scenario-types.js'
import { apiKeyLookup, findBusiness, findCustomer, listCustomers } from './tenant-sql.js'
import { createCustomerSteps, NEW_CUSTOMER } from './write-sql.js'

const PAGE_SIZE = 20

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

const readScenarios = withEitherCredential(reads)

/** The customer write with either credential; the bare route looks the API key up first, as for reads. */
const writeScenarios: Scenario[] = (['bearer', 'apikey'] as const).map((kind) => ({
  name: `create-customer-${kind}`,
  kind: 'write',
  cartage: {
    api: 'core',
    method: 'POST',
    path: () => '/api/v1/Customers',
    headers: kind === 'bearer' ? bearerHeaders : apiKeyHeaders,
    body: () => NEW_CUSTOMER,
    check: hasData,
  },
  baseline: {
    steps: kind === 'bearer' ? createCustomerSteps : [[apiKeyLookup], ...createCustomerSteps],
    oneConnection: true,
    rows: kind === 'bearer' ? [0, 1, 0, 0, 1, 0] : [1, 0, 1, 0, 0, 1, 0],
    respond: (results) => single('core', toCustomer(results.at(-2)?.[0] as unknown as CustomerRow)),
  },
}))

/** Authenticated routes acting in the seeded business (Core API). */
export const tenantScenarios: Scenario[] = [...readScenarios, ...writeScenarios]
