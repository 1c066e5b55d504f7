/**
 * `npx tsx --expose-gc bench/statement-memory.ts [schemas...]`: heap held by the compiled
 * statements (db/schema-statements.ts) after reads touched N organisation schemas. No database is
 * needed: the statements run on Kysely's DummyDriver, which compiles exactly as on PostgreSQL.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import type { Tables } from '../src/db/tables.js'
import {
  customersInDefaultOrder,
  findCustomer,
} from '../src/modules/customers/customers/customers.repository.js'
import { findBusiness } from '../src/modules/organisation/business/business.repository.js'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc (npx tsx --expose-gc bench/statement-memory.ts)')

const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})
const id = '00000000-0000-4000-8000-000000000000'
const heapMb = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

const counts = process.argv.slice(2).map(Number)
let touched = 0
const before = heapMb()
process.stdout.write('schemas touched   heap MB   growth MB\n')
for (const target of counts.length ? counts : [1, 100, 1000, 5000]) {
  for (; touched < target; touched++) {
    const schema = `org_${touched.toString(16).padStart(12, '0')}`
    await findCustomer(db, schema, id, id)
    await customersInDefaultOrder(db, schema, { businessId: id, limit: 20, offset: 0 })
    await findBusiness(db, schema, id)
  }
  const now = heapMb()
  process.stdout.write(
    `${String(touched).padStart(15)}   ${now.toFixed(1).padStart(7)}   ${(now - before).toFixed(1).padStart(9)}\n`,
  )
}
await db.destroy()
