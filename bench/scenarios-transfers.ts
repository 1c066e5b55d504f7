import { sql } from 'kysely'
import type { DatabasePool } from '../src/db/lane-pool.js'
import { paged } from '../src/http/envelopes.js'
import {
  toInTransitLine,
  toTransferOrder,
} from '../src/modules/inventory/transfer-orders/transfer-orders.mapper.js'
import {
  type InTransitRow,
  scopedInTransit,
  scopedTransferOrders,
  type TransferOrderRow,
} from '../src/modules/inventory/transfer-orders/transfer-orders.repository.js'
import { benchId, compiled, compiler } from './compiled-sql.js'
import { listOf, type Read, withEitherCredential } from './reads.js'
import type { ResolvedSeed, Seed, Statement } from './scenario-types.js'

/** Transfers between the seeded business and a branch: a third Draft, a third in transit, a third received. */
export const TRANSFERS = 3_000
const LINES = 3
const PAGE_SIZE = 20

const branchOf = (seed: Seed) => benchId(seed.businessId, 'transfer-branch')

/** The page of GET /api/v1/transfer-orders, as runList builds it: default order, its total, page 1. */
const listPage = (seed: ResolvedSeed) =>
  scopedTransferOrders(compiler, seed.schemaName, seed.businessId)
    .orderBy(sql.ref('t.date_created'), 'desc')
    .orderBy(sql.ref('t.id'))
    .select(sql<number>`count(*) over ()`.as('__total'))
    .limit(PAGE_SIZE)
    .offset(0)

/** The page of GET /api/v1/transfer-orders/in-transit, as runList builds it. */
const inTransitPage = (seed: ResolvedSeed) =>
  scopedInTransit(compiler, seed.schemaName, seed.businessId)
    .orderBy(sql.ref('t.shipped_at'), 'asc')
    .orderBy(sql.ref('l.line_number'), 'asc')
    .orderBy(sql.ref('l.id'))
    .select(sql<number>`count(*) over ()`.as('__total'))
    .limit(PAGE_SIZE)
    .offset(0)

const listStatement: Statement = {
  sql: (seed) => compiled(listPage(seed)).sql,
  params: (seed) => [...compiled(listPage(seed)).parameters],
}
const inTransitStatement: Statement = {
  sql: (seed) => compiled(inTransitPage(seed)).sql,
  params: (seed) => [...compiled(inTransitPage(seed)).parameters],
}

const page = { page: 1, pageSize: PAGE_SIZE }
const reads: Read[] = [
  {
    name: 'transfer-orders',
    path: () => `/api/v1/transfer-orders?PageSize=${PAGE_SIZE}`,
    check: listOf(PAGE_SIZE),
    steps: [[listStatement]],
    rows: [PAGE_SIZE],
    respond: (rows) =>
      paged(
        'core',
        rows.map((row) => toTransferOrder(row as unknown as TransferOrderRow)),
        Number(rows[0]?.__total ?? 0),
        page,
      ),
  },
  {
    name: 'transfers-in-transit',
    path: () => `/api/v1/transfer-orders/in-transit?PageSize=${PAGE_SIZE}`,
    check: listOf(PAGE_SIZE),
    steps: [[inTransitStatement]],
    rows: [PAGE_SIZE],
    respond: (rows) =>
      paged(
        'core',
        rows.map((row) => toInTransitLine(row as unknown as InTransitRow)),
        Number(rows[0]?.__total ?? 0),
        page,
      ),
  },
]

export const transferScenarios = withEitherCredential(reads)

/**
 * Inserts, once per business: a branch in its organisation, a product pair per 100 transfers, and
 * TRANSFERS transfers of LINES lines, half from the business and half to it.
 */
export async function seedTransfers(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const head = seed.businessId
  const branch = branchOf(seed)
  const exists = await pool.query(`SELECT 1 FROM "${s}".businesses WHERE id = $1`, [branch])
  if (exists.rowCount) return
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO global.businesses (id, organization_id, parent_business_id)
       SELECT $1, organization_id, id FROM global.businesses WHERE id = $2`,
      [branch, head],
    )
    await client.query(
      `INSERT INTO "${s}".businesses (id, registered_name, display_name) VALUES ($1, 'Bench branch', 'Bench branch')`,
      [branch],
    )
    const pairs = TRANSFERS / 100
    await client.query(
      `INSERT INTO "${s}".products (id, business_id, sku, name, type)
       SELECT md5($1 || b.id || g)::uuid, b.id, 'BENCH-TR-' || g, 'Bench transfer ' || g, 'RawMaterial'
       FROM generate_series(1, $2::int) g CROSS JOIN (VALUES ($3::uuid), ($4::uuid)) AS b(id)`,
      [s, pairs, head, branch],
    )
    await client.query(
      `INSERT INTO "${s}".transfer_orders (id, number, source_business_id, destination_business_id, status,
         shipped_at, received_at, date_created)
       SELECT md5($1 || 'transfer' || g)::uuid, 'TO-' || lpad(g::text, 6, '0'),
         CASE WHEN g % 2 = 0 THEN $2::uuid ELSE $3::uuid END, CASE WHEN g % 2 = 0 THEN $3::uuid ELSE $2::uuid END,
         (ARRAY['Draft', 'Shipped', 'Received'])[g % 3 + 1],
         CASE WHEN g % 3 > 0 THEN timestamptz '2026-01-01' + g * interval '1 minute' END,
         CASE WHEN g % 3 = 2 THEN timestamptz '2026-01-02' + g * interval '1 minute' END,
         timestamptz '2026-01-01' + g * interval '1 minute'
       FROM generate_series(1, $4::int) g`,
      [s, head, branch, TRANSFERS],
    )
    await client.query(
      `INSERT INTO "${s}".transfer_order_lines (id, transfer_order_id, line_number, source_product_id,
         destination_product_id, quantity, unit_cost, quantity_received)
       SELECT gen_random_uuid(), t.id, n,
         md5($1 || t.source_business_id || ((n + g) % $3 + 1))::uuid,
         md5($1 || t.destination_business_id || ((n + g) % $3 + 1))::uuid,
         n * 2, CASE WHEN t.status <> 'Draft' THEN 4.5 + n END, CASE WHEN t.status = 'Received' THEN n * 2 ELSE 0 END
       FROM generate_series(1, $2::int) g
       JOIN "${s}".transfer_orders t ON t.id = md5($1 || 'transfer' || g)::uuid
       CROSS JOIN generate_series(1, ${LINES}) n`,
      [s, TRANSFERS, pairs],
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}
