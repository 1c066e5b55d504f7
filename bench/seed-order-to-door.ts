/**
 * The records the order-to-door scenarios act on, inserted straight into the seeded organisation's
 * schema (bench/run.ts `seedVolumes`): stocked products, Draft orders to confirm, Scheduled plans
 * to dispatch, and a shipment on its way with its tracking link. Ids are md5 or sha1 of the
 * business id and a label, so the load generator, the baseline and the SQL agree on them.
 */
import { createHash } from 'node:crypto'
import type { DatabasePool } from '../src/db/lane-pool.js'
import { benchId } from './compiled-sql.js'
import type { ResolvedSeed, Seed } from './scenario-types.js'

export const CONFIRM_LINES = 50
/**
 * Draft orders for each side: every confirmation takes a fresh one, Cartage's the n-th of the first
 * CONFIRM_DRAFTS, the baseline's the n-th of the next CONFIRM_DRAFTS (both servers may share one
 * database). Enough for 8 rounds of 6 s at about 50 confirmations a second; BENCH_CONFIRM_DRAFTS.
 */
export const CONFIRM_DRAFTS = Number(process.env.BENCH_CONFIRM_DRAFTS ?? 3000)

/** A uuid from md5, as PostgreSQL's `md5(text)::uuid` makes it: the seed's SQL and the bench agree on it. */
export function md5Id(text: string): string {
  const hex = createHash('md5').update(text).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const confirmProduct = (seed: Seed, i: number) => benchId(seed.businessId, `confirm-product-${i}`)
/** The n-th draft order (0-based) and its lines, as seeded. */
export const draftOrder = (seed: Seed, n: number) => md5Id(`${seed.businessId}:confirm-order:${n}`)
export const draftLine = (seed: Seed, n: number, line: number) =>
  md5Id(`${seed.businessId}:confirm-line:${n}:${line}`)

export const PLAN_SHIPMENTS = 50
export const SHIPMENT_LINES = 5
const DISPATCH_PRODUCTS = 50
/**
 * Scheduled plans for each side: every dispatch takes a fresh one, Cartage's the n-th of the first
 * DISPATCH_PLANS, the baseline's the n-th of the next DISPATCH_PLANS. Enough for 8 rounds of 8 s at about
 * 10 dispatches a second; BENCH_DISPATCH_PLANS.
 */
export const DISPATCH_PLANS = Number(process.env.BENCH_DISPATCH_PLANS ?? 700)

const dispatchProduct = (seed: Seed, i: number) => benchId(seed.businessId, `dispatch-product-${i}`)
export const dispatchPlan = (seed: Seed, n: number) => md5Id(`${seed.businessId}:dispatch-plan:${n}`)
/** The k-th shipment (0-based) of the n-th plan, and its order. */
export const planShipment = (seed: Seed, n: number, k: number) =>
  md5Id(`${seed.businessId}:dispatch-shipment:${n * PLAN_SHIPMENTS + k}`)

/**
 * Products with plenty of stock (one receipt of 10^9 at 10, in 2020), so reservations and issues
 * never run short; their ledger checkpoints as a posting leaves them.
 */
export async function insertStockedProducts(
  client: Pick<DatabasePool, 'query'>,
  seed: ResolvedSeed,
  ids: readonly string[],
  sku: string,
) {
  const s = seed.schemaName
  await client.query(
    `INSERT INTO "${s}".products (id, business_id, sku, name, type, unit_price, weight, on_hand, average_cost)
     SELECT p.id, $1, $3 || p.n, 'Bench ' || $3 || p.n, 'FinishedGood', 5, 1, 1000000000, 10
     FROM unnest($2::uuid[]) WITH ORDINALITY AS p(id, n)`,
    [seed.businessId, ids, sku],
  )
  await client.query(
    `INSERT INTO "${s}".stock_ledger (id, business_id, product_id, type, quantity, received_cost, effective_date, reference)
     SELECT gen_random_uuid(), $1, p.id, 'Receipt', 1000000000, 10, '2020-01-01', 'BENCH-STOCK'
     FROM unnest($2::uuid[]) AS p(id)`,
    [seed.businessId, ids],
  )
  await client.query(
    `SELECT r.* FROM unnest($1::uuid[]) AS p(id)
     CROSS JOIN LATERAL "${s}".stock_revalue(p.id, '-infinity', 0, NULL, NULL, false) r`,
    [ids],
  )
}

/**
 * Inserts, once per business: CONFIRM_LINES stocked products, a customer, and 2 x CONFIRM_DRAFTS
 * Draft orders of CONFIRM_LINES lines (one of each product, quantity 1 at 5).
 */
export async function seedConfirmations(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const customer = benchId(biz, 'confirm-customer')
  const exists = await pool.query(`SELECT 1 FROM "${s}".customers WHERE id = $1`, [customer])
  if (exists.rowCount) return
  const products = Array.from({ length: CONFIRM_LINES }, (_, i) => confirmProduct(seed, i))
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await insertStockedProducts(client, seed, products, 'BENCH-CONFIRM-')
    await client.query(
      `INSERT INTO "${s}".customers (id, business_id, code, name) VALUES ($1, $2, 'BENCH-CONFIRM', 'Bench confirming customer')`,
      [customer, biz],
    )
    await client.query(
      `INSERT INTO "${s}".orders (id, business_id, code, customer_id, status, order_date, currency, total)
       SELECT md5($1::text || ':confirm-order:' || g)::uuid, $1::uuid, 'BENCH-CO-' || g, $2, 'Draft', now(), 'USD', 5 * $3
       FROM generate_series(0, $4::int - 1) g`,
      [biz, customer, CONFIRM_LINES, 2 * CONFIRM_DRAFTS],
    )
    await client.query(
      `INSERT INTO "${s}".order_lines (id, order_id, line_number, product_id, quantity, unit_price)
       SELECT md5($1::text || ':confirm-line:' || g || ':' || n)::uuid, md5($1::text || ':confirm-order:' || g)::uuid, n,
         ($2::uuid[])[n], 1, 5
       FROM generate_series(0, $3::int - 1) g CROSS JOIN generate_series(1, $4::int) n`,
      [biz, products, 2 * CONFIRM_DRAFTS, CONFIRM_LINES],
    )
    await client.query('COMMIT')
    // As autovacuum would: a plan chosen without statistics of 300,000 new lines is no plan to measure.
    await client.query(`ANALYZE "${s}".orders, "${s}".order_lines, "${s}".products, "${s}".stock_ledger`)
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}

/**
 * Inserts, once per business: DISPATCH_PRODUCTS stocked products, a customer with an email address
 * (the tracking mail), and 2 x DISPATCH_PLANS Scheduled plans of PLAN_SHIPMENTS Assigned
 * shipments, each carrying SHIPMENT_LINES lines of its own Confirmed order (quantity 1, reserved).
 * The bulk rows skip the audit triggers (session_replication_role): the bench needs the rows, not
 * their history.
 */
export async function seedDispatches(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const customer = benchId(biz, 'dispatch-customer')
  const exists = await pool.query(`SELECT 1 FROM "${s}".customers WHERE id = $1`, [customer])
  if (exists.rowCount) return
  const products = Array.from({ length: DISPATCH_PRODUCTS }, (_, i) => dispatchProduct(seed, i))
  const plans = 2 * DISPATCH_PLANS
  const shipments = plans * PLAN_SHIPMENTS
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await insertStockedProducts(client, seed, products, 'BENCH-DISPATCH-')
    await client.query(
      `INSERT INTO "${s}".customers (id, business_id, code, name, email)
       VALUES ($1, $2, 'BENCH-DISPATCH', 'Bench dispatch customer', 'dispatch@example.com')`,
      [customer, biz],
    )
    await client.query('SET LOCAL session_replication_role = replica')
    await client.query(
      `INSERT INTO "${s}".delivery_plans (id, business_id, code, status, scheduled_date, scheduled_at)
       SELECT md5($1::text || ':dispatch-plan:' || p)::uuid, $1::uuid, 'BENCH-DP-' || p, 'Scheduled', current_date, now()
       FROM generate_series(0, $2::int - 1) p`,
      [biz, plans],
    )
    await client.query(
      `INSERT INTO "${s}".orders (id, business_id, code, customer_id, status, order_date, currency, total, confirmed_at)
       SELECT md5($1::text || ':dispatch-order:' || g)::uuid, $1::uuid, 'BENCH-DO-' || g, $2, 'Confirmed', now(), 'USD', 5 * $3, now()
       FROM generate_series(0, $4::int - 1) g`,
      [biz, customer, SHIPMENT_LINES, shipments],
    )
    // Line n of the k-th shipment of a plan is of product (5k + n) mod 50: each product goes out 5 times a plan.
    await client.query(
      `INSERT INTO "${s}".order_lines (id, order_id, line_number, product_id, quantity, unit_price)
       SELECT md5($1::text || ':dispatch-line:' || g || ':' || n)::uuid, md5($1::text || ':dispatch-order:' || g)::uuid, n,
         ($2::uuid[])[((g % $3) * $4 + n - 1) % $5 + 1], 1, 5
       FROM generate_series(0, $6::int - 1) g CROSS JOIN generate_series(1, $4::int) n`,
      [biz, products, PLAN_SHIPMENTS, SHIPMENT_LINES, DISPATCH_PRODUCTS, shipments],
    )
    await client.query(
      `INSERT INTO "${s}".stock_reservations (id, business_id, order_id, order_line_id, product_id, quantity)
       SELECT gen_random_uuid(), $1::uuid, l.order_id, l.id, l.product_id, l.quantity
       FROM "${s}".order_lines l JOIN "${s}".orders o ON o.id = l.order_id
       WHERE o.business_id = $1::uuid AND o.code LIKE 'BENCH-DO-%'`,
      [biz],
    )
    await client.query(
      `INSERT INTO "${s}".shipments (id, business_id, code, order_id, customer_id, status, delivery_address, weight, volume,
         scheduled_date, delivery_plan_id, stop_sequence, assigned_at)
       SELECT md5($1::text || ':dispatch-shipment:' || g)::uuid, $1::uuid, 'BENCH-DS-' || g, md5($1::text || ':dispatch-order:' || g)::uuid, $2,
         'Assigned', jsonb_build_object('fullAddress', 'Bench stop ' || g, 'latitude', -33.9 + (g % $3) / 1000.0, 'longitude', 18.4),
         $4, 0.05, current_date, md5($1::text || ':dispatch-plan:' || (g / $3))::uuid, g % $3 + 1, now()
       FROM generate_series(0, $5::int - 1) g`,
      [biz, customer, PLAN_SHIPMENTS, SHIPMENT_LINES, shipments],
    )
    await client.query(
      `INSERT INTO "${s}".shipment_lines (id, business_id, shipment_id, line_number, order_line_id, product_id, quantity)
       SELECT gen_random_uuid(), $1::uuid, md5($1::text || ':dispatch-shipment:' || l.g)::uuid, l.line_number, l.id, l.product_id, 1
       FROM (SELECT substr(o.code, 10)::int AS g, ol.* FROM "${s}".order_lines ol JOIN "${s}".orders o ON o.id = ol.order_id
             WHERE o.business_id = $1::uuid AND o.code LIKE 'BENCH-DO-%') l`,
      [biz],
    )
    await client.query('COMMIT')
    await client.query(
      `ANALYZE "${s}".orders, "${s}".order_lines, "${s}".stock_reservations, "${s}".shipments, "${s}".shipment_lines, "${s}".delivery_plans`,
    )
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}

export const trackedShipment = (seed: Seed) => benchId(seed.businessId, 'tracked-shipment')
/** The tracked shipment's link token: 43 URL-safe characters, as a real one (32 random bytes). */
export const trackingToken = (seed: Seed) =>
  createHash('sha256').update(`${seed.businessId}:tracking`).digest('base64url')

/**
 * Inserts, once per business (after seedDispatches, whose customer it delivers to): a shipment on
 * its way on a Dispatched plan, with a delivery window, a planned arrival, the driver's arrival
 * and its tracking link: the public page shows all of them.
 */
export async function seedTracking(pool: DatabasePool, seed: ResolvedSeed): Promise<void> {
  const s = seed.schemaName
  const biz = seed.businessId
  const shipment = trackedShipment(seed)
  const exists = await pool.query(`SELECT 1 FROM "${s}".shipments WHERE id = $1`, [shipment])
  if (exists.rowCount) return
  const plan = benchId(biz, 'tracked-plan')
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO "${s}".delivery_plans (id, business_id, code, status, scheduled_date, scheduled_at, dispatched_at)
       VALUES ($1, $2, 'BENCH-TRACKED', 'Dispatched', current_date, now() - interval '3 hours', now() - interval '2 hours')`,
      [plan, biz],
    )
    await client.query(
      `INSERT INTO "${s}".shipments (id, business_id, code, customer_id, status, delivery_address, weight, scheduled_date,
         delivery_plan_id, stop_sequence, assigned_at, dispatched_at, delivery_windows, planned_arrival, planned_departure)
       VALUES ($1, $2, 'BENCH-TRACKED-1', $3, 'InTransit', '{"fullAddress": "1 Bench Road", "latitude": -33.9, "longitude": 18.4}',
         5, current_date, $4, 1, now() - interval '3 hours', now() - interval '2 hours',
         jsonb_build_array(jsonb_build_object('start', to_char((now() - interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'),
                                              'end', to_char((now() + interval '2 hours') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'))),
         now() + interval '30 minutes', now() + interval '40 minutes')`,
      [shipment, biz, benchId(biz, 'dispatch-customer'), plan],
    )
    await client.query(
      `INSERT INTO "${s}".stop_operations (id, business_id, shipment_id, delivery_plan_id, kind, occurred_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'Arrived', now() - interval '10 minutes')`,
      [biz, shipment, plan],
    )
    await client.query(
      `INSERT INTO global.tracking_links (token, schema_name, business_id, shipment_id, email_to, emailed_at)
       VALUES ($1, $2, $3, $4, 'dispatch@example.com', now() - interval '2 hours')`,
      [trackingToken(seed), s, biz, shipment],
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
}
