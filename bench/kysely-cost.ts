/**
 * `npx tsx bench/kysely-cost.ts`: what building SQL with Kysely costs per request on the routes
 * the bench measures, without a database. Runs Cartage's own repository/service code over a
 * driver that answers instantly with canned rows, then runs the very statements that code
 * compiled (recorded on the first call) again as ready `CompiledQuery`s through the same Kysely
 * instance, plus the route's own row mapping. The difference is the per-request price of
 * building, transforming (withSchema) and compiling the queries; a cache of compiled statements
 * per schema would save it.
 */
import { randomUUID } from 'node:crypto'
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely'
import type { Tables } from '../src/db/tables.js'
import { toCustomer } from '../src/modules/customers/customers/customers.read.js'
import { listCustomers, loadCustomerResponse } from '../src/modules/customers/customers/customers.service.js'
import { findBusiness } from '../src/modules/organisation/business/business.repository.js'
import { toBusinessResponse } from '../src/modules/organisation/business/business.service.js'
import { Authenticator } from '../src/security/authenticator.js'
import { SecretHasher } from '../src/security/secrets.js'
import type { TokenSigner } from '../src/security/signing.js'
import { business, customer, fakeRows, page } from './kysely-fake-rows.js'

const recorded: CompiledQuery[] = []
let recording = false
const connection: DatabaseConnection = {
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (recording) recorded.push(compiled)
    return { rows: fakeRows(compiled.sql) as R[] }
  },
  streamQuery() {
    throw new Error('not used')
  },
}
const driver: Driver = {
  init: async () => {},
  acquireConnection: async () => connection,
  beginTransaction: async () => {},
  commitTransaction: async () => {},
  rollbackTransaction: async () => {},
  releaseConnection: async () => {},
  destroy: async () => {},
}
const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

const scope = { schemaName: 'org_benchschema', businessId: randomUUID() }
// apiKey() never touches the token signer.
const authenticator = new Authenticator(
  db,
  undefined as unknown as TokenSigner,
  new SecretHasher(Buffer.alloc(32)),
)
const oneCustomer = customer(1)

interface Route {
  /** The route's data work as Cartage does it. */
  run: () => Promise<unknown>
  /** Only its mapping of the rows to the response, to add to the precompiled run. */
  map: () => unknown
}
const routes: Record<string, Route> = {
  'API key lookup (Authenticator.apiKey)': {
    run: () => authenticator.apiKey('bench-key'),
    map: () => null,
  },
  'my-business (findBusiness + toBusinessResponse)': {
    run: async () => {
      const row = await findBusiness(db, scope.schemaName, scope.businessId)
      return row && toBusinessResponse(row)
    },
    map: () => toBusinessResponse(business),
  },
  'customer (loadCustomerResponse)': {
    run: () => loadCustomerResponse(db, scope, randomUUID()),
    map: () => toCustomer(oneCustomer),
  },
  'customers page of 20 (listCustomers)': {
    run: () => listCustomers(db, scope, { Page: 1, PageSize: 20 }),
    map: () => page.map((row) => toCustomer(row)),
  },
}

async function timePerCall(run: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let i = 0; i < iterations / 5; i++) await run()
  const start = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) await run()
  return Number(process.hrtime.bigint() - start) / 1000 / iterations
}

const ITERATIONS = Number(process.env.ITERATIONS ?? 50_000)
process.stdout.write(`µs per call, ${ITERATIONS} calls each, Node ${process.version}\n`)
for (const [name, { run, map }] of Object.entries(routes)) {
  recorded.length = 0
  recording = true
  await run()
  recording = false
  const statements = [...recorded]
  const asBuilt = await timePerCall(run, ITERATIONS)
  const precompiled = await timePerCall(async () => {
    await Promise.all(statements.map((statement) => db.executeQuery(statement)))
    return map()
  }, ITERATIONS)
  process.stdout.write(
    `${name}: ${statements.length} statement(s); as Cartage builds them ${asBuilt.toFixed(1)} µs, ` +
      `precompiled ${precompiled.toFixed(1)} µs: building costs ${(asBuilt - precompiled).toFixed(1)} µs\n`,
  )
}
await db.destroy()
