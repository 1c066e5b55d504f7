/**
 * Purchasing reads against the bare route running the same query by hand (one prepared statement
 * each, the page and its total from `count(*) over ()`):
 * - suppliers: the first page (20) of GET /api/v1/suppliers in the default order, each supplier with
 *   its two contacts, among SUPPLIER_COUNT suppliers;
 * - reorder-suggestions: the first page (20) of GET /api/v1/suppliers/reorder-suggestions, among
 *   REORDER_PRODUCTS products with a reorder level of which every other one is at or below it, each
 *   with a preferred supplier's terms.
 * The volumes are inserted straight into the seeded organisation's schema by `seedPurchasing`.
 */
import type { DatabasePool } from '../src/db/lane-pool.js'
import { paged } from '../src/http/envelopes.js'
import type { SuggestionRow } from '../src/modules/purchasing/suppliers/reorder-suggestions.repository.js'
import { toSuggestion } from '../src/modules/purchasing/suppliers/reorder-suggestions.service.js'
import type { SupplierRow } from '../src/modules/purchasing/suppliers/suppliers.repository.js'
import { toSupplier } from '../src/modules/purchasing/suppliers/suppliers.service.js'
import { listOf, type Read, withEitherCredential } from './reads.js'
import type { ResolvedSeed, Statement } from './scenario-types.js'

export const SUPPLIER_COUNT = 500
export const REORDER_PRODUCTS = 1_000
const PAGE_SIZE = 20

const suppliersPage: Statement = {
  name: 'bench-suppliers',
  sql: ({ schemaName: s }) =>
    'select s.id, s.business_id, s.code, s.name, s.email, s.phone_number, s.website, s.currency, s.payment_terms, ' +
    's.lead_time_days, s.tax_number, s.address, s.remittance_address, s.metadata, s.notes, s.is_active, s.deleted_at, ' +
    's.date_created, s.date_modified, ' +
    "coalesce((select json_agg(json_build_object('id', sc.id, 'firstName', sc.first_name, 'lastName', sc.last_name, " +
    "'email', sc.email, 'phoneNumber', sc.phone_number, 'role', sc.role, 'isPrimary', sc.is_primary) " +
    `order by sc.is_primary desc, sc.date_created, sc.id) from "${s}".supplier_contacts sc where sc.supplier_id = s.id), '[]'::json) as contacts, ` +
    `count(*) over () as total from "${s}".suppliers s where s.business_id = $1 and s.deleted_at is null ` +
    'order by s.date_created desc, s.id limit $2 offset $3',
  params: (seed) => [seed.businessId, PAGE_SIZE, 0],
}

const suggestionsPage: Statement = {
  name: 'bench-reorder-suggestions',
  sql: ({ schemaName: s }) => {
    const suggested = 'greatest(coalesce(sp.minimum_order_quantity, 0), 2 * p.reorder_level - p.on_hand)'
    return (
      'select p.id as product_id, p.sku, p.name as product_name, p.type, p.unit_of_measure, p.on_hand, p.reorder_level, ' +
      `${suggested} as suggested_quantity, s.id as supplier_id, s.code as supplier_code, s.name as supplier_name, ` +
      's.currency, sp.supplier_sku, sp.unit_cost, sp.minimum_order_quantity, ' +
      'coalesce(sp.lead_time_days, s.lead_time_days) as lead_time_days, ' +
      `round(${suggested} * sp.unit_cost, 4) as estimated_cost, count(*) over () as total ` +
      `from "${s}".products p left join "${s}".supplier_products sp on sp.product_id = p.id ` +
      'and sp.business_id = p.business_id and sp.is_preferred = true ' +
      `left join "${s}".suppliers s on s.id = sp.supplier_id ` +
      'where p.business_id = $1 and p.active = true and p.archived_at is null and p.reorder_level is not null ' +
      'and p.on_hand <= p.reorder_level order by p.sku asc, p.id limit $2 offset $3'
    )
  },
  params: (seed) => [seed.businessId, PAGE_SIZE, 0],
}

const pageOf = <T>(rows: Record<string, unknown>[], map: (row: never) => T) =>
  paged('core', rows.map(map as (row: Record<string, unknown>) => T), Number(rows[0]?.total ?? 0), {
    page: 1,
    pageSize: PAGE_SIZE,
  })

const reads: Read[] = [
  {
    name: 'suppliers',
    path: () => `/api/v1/suppliers?PageSize=${PAGE_SIZE}`,
    check: listOf(PAGE_SIZE),
    steps: [[suppliersPage]],
    rows: [PAGE_SIZE],
    respond: (rows) => pageOf(rows, (row: SupplierRow) => toSupplier(row)),
  },
  {
    name: 'reorder-suggestions',
    path: () => `/api/v1/suppliers/reorder-suggestions?PageSize=${PAGE_SIZE}`,
    check: listOf(PAGE_SIZE),
    steps: [[suggestionsPage]],
    rows: [PAGE_SIZE],
    respond: (rows) => pageOf(rows, (row: SuggestionRow) => toSuggestion(row)),
  },
]

export const purchasingScenarios = withEitherCredential(reads)

/**
 * Inserts, once per business: SUPPLIER_COUNT suppliers with two contacts each (one primary), and
 * REORDER_PRODUCTS raw materials with a reorder level of 50, every other one at 20 on hand (below)
 * and the rest at 80, each with terms from two suppliers, one of them preferred.
 */
export async function seedPurchasing(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const exists = await pool.query(`SELECT 1 FROM "${s}".suppliers WHERE business_id = $1 LIMIT 1`, [biz])
  if (exists.rowCount) return
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO "${s}".suppliers (id, business_id, code, name, email, currency, lead_time_days, tax_number,
         metadata, date_created)
       SELECT gen_random_uuid(), $1, 'SUP-' || lpad(g::text, 6, '0'), 'Bench supplier ' || g,
         'supplier' || g || '@bench.example', 'ZAR', g % 20, 'VAT' || g, '{"tier":"bench"}',
         timestamptz '2024-01-01' + g * interval '1 minute'
       FROM generate_series(1, $2::int) AS g`,
      [biz, SUPPLIER_COUNT],
    )
    await client.query(
      `INSERT INTO "${s}".supplier_contacts (id, business_id, supplier_id, first_name, last_name, email, role, is_primary)
       SELECT gen_random_uuid(), $1, sup.id, 'Contact ' || n, 'Bench', 'c' || n || '@bench.example', 'Sales', n = 1
       FROM "${s}".suppliers sup CROSS JOIN generate_series(1, 2) AS n WHERE sup.business_id = $1`,
      [biz],
    )
    await client.query(
      `INSERT INTO "${s}".products (id, business_id, sku, name, type, reorder_level, on_hand)
       SELECT gen_random_uuid(), $1, 'BENCH-RM-' || lpad(g::text, 5, '0'), 'Bench material ' || g, 'RawMaterial', 50,
         CASE WHEN g % 2 = 0 THEN 20 ELSE 80 END
       FROM generate_series(1, $2::int) AS g`,
      [biz, REORDER_PRODUCTS],
    )
    await client.query(
      `WITH ranked AS (
         SELECT id, row_number() OVER (ORDER BY sku) AS n FROM "${s}".products
         WHERE business_id = $1 AND sku LIKE 'BENCH-RM-%'),
       sups AS (SELECT id, row_number() OVER (ORDER BY code) AS n FROM "${s}".suppliers WHERE business_id = $1)
       INSERT INTO "${s}".supplier_products (id, business_id, supplier_id, product_id, supplier_sku, unit_cost,
         minimum_order_quantity, lead_time_days, is_preferred)
       SELECT gen_random_uuid(), $1, sups.id, ranked.id, 'S-' || ranked.n || '-' || k, 1.25 + k, 10 * k,
         CASE WHEN k = 1 THEN NULL ELSE 3 END, k = 1
       FROM ranked CROSS JOIN generate_series(1, 2) AS k
       JOIN sups ON sups.n = (ranked.n + k) % $2 + 1`,
      [biz, SUPPLIER_COUNT],
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}
