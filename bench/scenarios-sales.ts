import type { DatabasePool } from '../src/db/lane-pool.js'
import { availabilityQuery } from '../src/modules/sales/reservations/reservations.repository.js'
import { benchId, compiled } from './compiled-sql.js'
import { type Read, withEitherCredential } from './reads.js'
import { field, type ResolvedSeed, type Seed, type Statement } from './scenario-types.js'
import { LEDGER_ENTRIES } from './scenarios-manufacturing.js'

/** Open reservations of the 100,000-entry product (scenarios-manufacturing.ts), one unit each. */
export const RESERVATIONS = 1_000
const ORDERS = 100

const stockProduct = (seed: Seed) => benchId(seed.businessId, 'stock-product')

const availability: Statement = {
  sql: (seed) => compiled(availabilityQuery(seed.schemaName, seed.businessId, stockProduct(seed))).sql,
  params: (seed) => [
    ...compiled(availabilityQuery(seed.schemaName, seed.businessId, stockProduct(seed))).parameters,
  ],
}

const available = LEDGER_ENTRIES / 2 - RESERVATIONS

const reads: Read[] = [
  {
    name: 'availability-100k',
    path: (seed: Seed) => `/api/v1/products/${stockProduct(seed)}/availability`,
    check: (json: unknown) => (field(field(json, 'data'), 'available') as number) === available,
    steps: [[availability]],
    rows: [1],
  },
  {
    // Available-to-promise reads the same figures: one statement, then the earliest date in code.
    name: 'available-to-promise-100k',
    path: (seed: Seed) => `/api/v1/products/${stockProduct(seed)}/available-to-promise?quantity=10`,
    check: (json: unknown) => field(field(json, 'data'), 'promisable') === true,
    steps: [[availability]],
    rows: [1],
  },
]

export const salesScenarios = withEitherCredential(reads)

/**
 * Inserts, once per business: a customer with ORDERS confirmed orders of RESERVATIONS / ORDERS
 * lines each, every line reserving one unit of the 100,000-entry product.
 */
export async function seedSales(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const customer = benchId(biz, 'sales-customer')
  const exists = await pool.query(`SELECT 1 FROM "${s}".customers WHERE id = $1`, [customer])
  if (exists.rowCount) return
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO "${s}".customers (id, business_id, code, name) VALUES ($1, $2, 'BENCH-SALES', 'Bench sales customer')`,
      [customer, biz],
    )
    await client.query(
      `INSERT INTO "${s}".orders (id, business_id, code, customer_id, status, order_date, currency, confirmed_at)
       SELECT md5($1 || 'sales-order' || g)::uuid, $2, 'BENCH-SO-' || g, $3, 'Confirmed', now(), 'USD', now()
       FROM generate_series(1, $4::int) g`,
      [s, biz, customer, ORDERS],
    )
    await client.query(
      `INSERT INTO "${s}".order_lines (id, order_id, line_number, product_id, quantity, unit_price)
       SELECT md5($1 || 'sales-line' || g || n)::uuid, md5($1 || 'sales-order' || g)::uuid, n, $2, 1, 5
       FROM generate_series(1, $3::int) g CROSS JOIN generate_series(1, $4::int) n`,
      [s, stockProduct(seed), ORDERS, RESERVATIONS / ORDERS],
    )
    await client.query(
      `INSERT INTO "${s}".stock_reservations (id, business_id, order_id, order_line_id, product_id, quantity)
       SELECT gen_random_uuid(), $2, l.order_id, l.id, l.product_id, 1
       FROM "${s}".order_lines l WHERE l.product_id = $3 AND l.order_id IN (
         SELECT md5($1 || 'sales-order' || g)::uuid FROM generate_series(1, $4::int) g)`,
      [s, biz, stockProduct(seed), ORDERS],
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}
