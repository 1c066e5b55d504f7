import type { DatabasePool } from '../src/db/lane-pool.js'
import { bomHeader, costTreeQuery } from '../src/modules/manufacturing/boms/bom-cost.repository.js'
import { stockAsOfQuery } from '../src/modules/manufacturing/stock/ledger.repository.js'
import { benchId, compiled, compiler } from './compiled-sql.js'
import { type Read, withEitherCredential } from './reads.js'
import { field, type ResolvedSeed, type Seed, type Statement } from './scenario-types.js'

export const LEDGER_ENTRIES = 100_000

const stockProduct = (seed: Seed) => benchId(seed.businessId, 'stock-product')
const topBom = (seed: Seed) => benchId(seed.businessId, 'bom-top')

const stockRead: Statement = {
  sql: (seed) =>
    compiled(stockAsOfQuery(seed.schemaName, seed.businessId, stockProduct(seed), new Date())).sql,
  params: (seed, fresh) => [
    ...compiled(stockAsOfQuery(seed.schemaName, seed.businessId, stockProduct(seed), fresh.now)).parameters,
  ],
  unchecked: [0],
}
const bomRow: Statement = {
  sql: (seed) => compiled(bomHeader(compiler, seed.schemaName, seed.businessId, topBom(seed))).sql,
  params: (seed) => [
    ...compiled(bomHeader(compiler, seed.schemaName, seed.businessId, topBom(seed))).parameters,
  ],
}
/** Positions of the request's own "now" among the tree query's parameters. */
const datePositions = compiled(costTreeQuery('s', 'b', new Date(0)))
  .parameters.map((value, i) => (value instanceof Date ? i : -1))
  .filter((i) => i >= 0)

const costTree: Statement = {
  sql: (seed) => compiled(costTreeQuery(seed.schemaName, topBom(seed), new Date())).sql,
  params: (seed, fresh) => [...compiled(costTreeQuery(seed.schemaName, topBom(seed), fresh.now)).parameters],
  unchecked: datePositions,
}

const reads: Read[] = [
  {
    name: 'stock-100k',
    path: (seed: Seed) => `/api/v1/products/${stockProduct(seed)}/stock`,
    check: (json: unknown) => (field(field(json, 'data'), 'onHand') as number) === LEDGER_ENTRIES / 2,
    steps: [[stockRead]],
    rows: [1],
    latencyGoalMs: 5,
  },
  {
    name: 'bom-cost-3-level',
    path: (seed: Seed) => `/api/v1/bom/${topBom(seed)}/cost`,
    check: (json: unknown) => Array.isArray(field(field(json, 'data'), 'lineItems')),
    steps: [[bomRow, costTree]],
    rows: [1, 60],
  },
]

export const manufacturingScenarios = withEitherCredential(reads)

/**
 * Inserts, once per business: a product with LEDGER_ENTRIES alternating receipts of 2 at 10 and
 * issues of 1 (on hand LEDGER_ENTRIES / 2, average 10; its checkpoints built by stock_revalue), and
 * a three-level BOM with 50 lines:
 * top (8 raw + 2 sub-assemblies) -> each sub-assembly (14 raw + the same sub-sub-assembly) ->
 * sub-sub-assembly (10 raw); 60 rows in the costing tree.
 */
export async function seedManufacturing(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const id = (label: string) => benchId(biz, label)
  const exists = await pool.query(`SELECT 1 FROM "${s}".products WHERE id = $1`, [stockProduct(seed)])
  if (exists.rowCount) return
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const product = (label: string, type: string) =>
      client.query(
        `INSERT INTO "${s}".products (id, business_id, sku, name, type, unit_cost) VALUES ($1, $2, $3, $4, $5, 1)`,
        [id(label), biz, `BENCH-${label}`, `Bench ${label}`, type],
      )
    await product('stock-product', 'RawMaterial')
    await client.query(
      `INSERT INTO "${s}".stock_ledger (id, business_id, product_id, type, quantity, received_cost, effective_date)
       SELECT gen_random_uuid(), $1, $2, CASE WHEN g % 2 = 1 THEN 'Receipt' ELSE 'Issue' END,
         CASE WHEN g % 2 = 1 THEN 2 ELSE -1 END, CASE WHEN g % 2 = 1 THEN 10 END,
         timestamptz '2020-01-01' + g * interval '1 minute'
       FROM generate_series(1, $3::int) AS g`,
      [biz, stockProduct(seed), LEDGER_ENTRIES],
    )
    await client.query(`UPDATE "${s}".products SET on_hand = $2, average_cost = 10 WHERE id = $1`, [
      stockProduct(seed),
      LEDGER_ENTRIES / 2,
    ])
    for (let i = 0; i < 20; i++) {
      await product(`raw-${i}`, 'RawMaterial')
      await client.query(
        `INSERT INTO "${s}".stock_ledger (id, business_id, product_id, type, quantity, received_cost, effective_date)
         VALUES (gen_random_uuid(), $1, $2, 'Receipt', 1000, $3, '2020-01-01')`,
        [biz, id(`raw-${i}`), 1 + i / 4],
      )
    }
    const boms: [string, string[]][] = [
      ['subsub', Array.from({ length: 10 }, (_, i) => `raw-${i}`)],
      ['sub-a', [...Array.from({ length: 14 }, (_, i) => `raw-${i + 2}`), 'subsub']],
      ['sub-b', [...Array.from({ length: 14 }, (_, i) => `raw-${i + 6}`), 'subsub']],
      ['top', [...Array.from({ length: 8 }, (_, i) => `raw-${i + 12}`), 'sub-a', 'sub-b']],
    ]
    for (const [label, lines] of boms) {
      await product(label, label === 'top' ? 'FinishedGood' : 'Component')
      await client.query(
        `INSERT INTO "${s}".boms (id, business_id, product_id, code, name, status, output_quantity, activated_at)
         VALUES ($1, $2, $3, $4, $4, 'Active', 1, '2020-01-01')`,
        [id(`bom-${label}`), biz, id(label), `BENCH-${label}`],
      )
      await client.query(
        `INSERT INTO "${s}".bom_activations (product_id, bom_id, active_from) VALUES ($1, $2, '2020-01-01')`,
        [id(label), id(`bom-${label}`)],
      )
      for (const [n, line] of lines.entries())
        await client.query(
          `INSERT INTO "${s}".bom_lines (id, bom_id, line_number, product_id, quantity, scrap_percent) VALUES (gen_random_uuid(), $1, $2, $3, $4, 5)`,
          [id(`bom-${label}`), n + 1, id(line), 1 + (n % 3)],
        )
    }
    // The running values: each product's checkpoints, as a posting would leave them.
    await client.query(
      `SELECT r.* FROM "${s}".products p
       CROSS JOIN LATERAL "${s}".stock_revalue(p.id, '-infinity', 0, NULL, NULL, false) r
       WHERE p.business_id = $1`,
      [biz],
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}
