/**
 * Dashboard insights at scale (PostgreSQL only): a fresh organisation whose business has
 * 1,000,000 shipments, 200,000 orders of 10,000 customers and 20,000 delivery plans spread over
 * the last 365 days, seeded with generate_series in a few statements (never row by row). Then
 * each dashboard call goes through the real HTTP stack (in-process inject, bearer token) with its
 * default range (the last 30 days), one request at a time; p50/p95 per call are printed.
 * Goal: p50 under 150 ms for each call.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/scenarios-insights.ts
 *
 * Also run by `npm run bench -- --scale` (or `-- --insights`). BENCH_INSIGHTS_SAMPLES (default
 * 50) sets the samples per call; BENCH_INSIGHTS_SHIPMENTS and BENCH_INSIGHTS_ORDERS the volumes.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { openCartage } from '../src/apps/cartage.js'
import { loadConfig } from '../src/config.js'
import { MemoryMailer } from '../src/mail/mailer.js'

const SHIPMENTS = Number(process.env.BENCH_INSIGHTS_SHIPMENTS ?? 1_000_000)
const ORDERS = Number(process.env.BENCH_INSIGHTS_ORDERS ?? 200_000)
const CUSTOMERS = 10_000
const PLANS = 20_000
const SAMPLES = Number(process.env.BENCH_INSIGHTS_SAMPLES ?? 50)
export const INSIGHTS_GOAL_MS = 150

const CALLS = [
  { name: 'summary', url: '/api/v1/insights/dashboard/summary' },
  { name: 'shipment-volumes (Day)', url: '/api/v1/insights/dashboard/shipment-volumes' },
  { name: 'dispatch-volumes (Day)', url: '/api/v1/insights/dashboard/dispatch-volumes' },
  { name: 'top-customers', url: '/api/v1/insights/dashboard/top-customers' },
  { name: 'shipment-volumes (Month, 365 days)', url: '/api/v1/insights/dashboard/shipment-volumes' },
] as const

export interface InsightsFigures {
  shipments: number
  orders: number
  seedSeconds: { customers: number; orders: number; shipments: number; plans: number; analyze: number }
  calls: { name: string; p50: number; p95: number }[]
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

/**
 * One statement per table. Dates step through the year with multiplicative hashes of the row
 * number, so the data is the same on every run; statuses follow fixed shares (shipments: 60%
 * Delivered, some of them after their scheduled day).
 */
function seedStatements(schema: string, businessId: string) {
  const t = (name: string) => sql.table(`${schema}.${name}`)
  const customerId = (n: ReturnType<typeof sql>) => sql`md5('bench-customer-' || ${n})::uuid`
  return {
    customers: sql`
      INSERT INTO ${t('customers')} (id, business_id, code, name)
      SELECT ${customerId(sql`g`)}, ${businessId}, 'BC-' || g, 'Bench Customer ' || g
      FROM generate_series(1, ${CUSTOMERS}::int) g`,
    orders: sql`
      INSERT INTO ${t('orders')} (id, business_id, code, customer_id, status, order_date, currency, total)
      SELECT gen_random_uuid(), ${businessId}, 'BO-' || g,
        ${customerId(sql`1 + (g::bigint * 7919) % ${CUSTOMERS}::int`)},
        (ARRAY['Confirmed','Confirmed','Confirmed','Confirmed','Confirmed','Confirmed','Confirmed',
               'Fulfilled','Fulfilled','Draft','Cancelled'])[1 + g % 11],
        now() - make_interval(secs => (g::bigint * 104729) % 31536000),
        'USD', ((g::bigint * 37) % 100000) / 100.0
      FROM generate_series(1, ${ORDERS}::int) g`,
    shipments: sql`
      INSERT INTO ${t('shipments')} (id, business_id, code, customer_id, status, scheduled_date, delivered_at, date_created, date_modified)
      SELECT gen_random_uuid(), ${businessId}, 'BS-' || g, ${customerId(sql`1 + (g::bigint * 7919) % ${CUSTOMERS}::int`)},
        status, created + make_interval(days => 1 + g % 3),
        CASE WHEN status = 'Delivered' THEN created + make_interval(hours => 1 + g % 80) END,
        created, created
      FROM generate_series(1, ${SHIPMENTS}::int) g
      CROSS JOIN LATERAL (SELECT
        now() - make_interval(secs => (g::bigint * 7919) % 31536000) AS created,
        (ARRAY['Delivered','Delivered','Delivered','Delivered','Delivered','Delivered','InTransit',
               'Assigned','Pending','Failed'])[1 + g % 10] AS status) x`,
    plans: sql`
      INSERT INTO ${t('delivery_plans')} (id, business_id, code, status, scheduled_date)
      SELECT gen_random_uuid(), ${businessId}, 'BP-' || g,
        (ARRAY['Completed','Completed','Dispatched','Scheduled','Draft','Cancelled'])[1 + g % 6],
        current_date - (g % 365)
      FROM generate_series(1, ${PLANS}::int) g`,
  }
}

export async function runInsights(databaseUrl = process.env.DATABASE_URL): Promise<InsightsFigures> {
  if (!databaseUrl) throw new Error('bench/scenarios-insights.ts needs DATABASE_URL (PostgreSQL)')
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-bench-insights-'))
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_PER_ACCOUNT: '1000000' }),
    databaseUrl,
    dataDir,
  }
  const cartage = await openCartage(config, { poolSize: 10, mailer: new MemoryMailer() })
  try {
    const { core, global, database } = cartage
    const email = `bench-insights-${Date.now()}@example.com`
    const password = 'correct-horse-battery'
    const registered = await global.inject({
      method: 'POST',
      url: '/api/organizations',
      payload: {
        business: { registeredName: `Bench ${Date.now()}`, displayName: 'Bench', email: 'ops@example.com' },
        user: {
          firstName: 'B',
          lastName: 'B',
          email,
          password,
          confirmPassword: password,
          acceptedTerms: true,
        },
      },
    })
    const businessId = registered.json().data.id as string
    const login = await global.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    })
    const headers = {
      authorization: `Bearer ${login.json().data.session.accessToken}`,
      'x-business-id': businessId,
    }
    const { schema_name: schema } = await database.db
      .selectFrom('global.organizations')
      .innerJoin('global.businesses', 'global.businesses.organization_id', 'global.organizations.id')
      .select('schema_name')
      .where('global.businesses.id', '=', businessId)
      .executeTakeFirstOrThrow()

    const seedSeconds = { customers: 0, orders: 0, shipments: 0, plans: 0, analyze: 0 }
    const statements = seedStatements(schema, businessId)
    for (const step of ['customers', 'orders', 'shipments', 'plans'] as const) {
      const started = performance.now()
      await statements[step].execute(database.db)
      seedSeconds[step] = (performance.now() - started) / 1000
      process.stdout.write(`seeded ${step} in ${seedSeconds[step].toFixed(1)} s\n`)
    }
    // A fresh visibility map lets the counts use index-only scans, as autovacuum would in production.
    const analyzed = performance.now()
    for (const name of ['customers', 'orders', 'shipments', 'delivery_plans'])
      await sql`VACUUM ANALYZE ${sql.table(`${schema}.${name}`)}`.execute(database.db)
    seedSeconds.analyze = (performance.now() - analyzed) / 1000

    const calls = []
    for (const call of CALLS) {
      const url = call.name.includes('Month')
        ? `${call.url}?granularity=Month&from=${new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10)}`
        : call.url
      const times: number[] = []
      for (let i = 0; i < SAMPLES + 5; i++) {
        const started = performance.now()
        const response = await core.inject({ method: 'GET', url, headers })
        const elapsed = performance.now() - started
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`)
        if (i >= 5) times.push(elapsed)
      }
      times.sort((a, b) => a - b)
      calls.push({ name: call.name, p50: percentile(times, 50), p95: percentile(times, 95) })
    }
    return { shipments: SHIPMENTS, orders: ORDERS, seedSeconds, calls }
  } finally {
    await cartage.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The section for bench/RESULTS.md. */
export function insightsMarkdown(figures: InsightsFigures): string {
  const seed = figures.seedSeconds
  const rows = figures.calls
    .map((c) => `| ${c.name} | ${c.p50.toFixed(1)} | ${c.p95.toFixed(1)} |`)
    .join('\n')
  return (
    '## Dashboard insights at scale (PostgreSQL)\n\n' +
    `${figures.shipments.toLocaleString('en')} shipments, ${figures.orders.toLocaleString('en')} orders in one business ` +
    `(bench/scenarios-insights.ts), seeded with generate_series in ${(seed.customers + seed.orders + seed.shipments + seed.plans).toFixed(1)} s ` +
    `(shipments ${seed.shipments.toFixed(1)} s) plus ${seed.analyze.toFixed(1)} s of VACUUM ANALYZE; default range ` +
    `(last 30 days), ${SAMPLES} sequential requests each through the HTTP stack (goal: p50 under ${INSIGHTS_GOAL_MS} ms).\n\n` +
    `| call | p50 ms | p95 ms |\n|---|---|---|\n${rows}\n`
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now()
  const figures = await runInsights()
  process.stdout.write(
    `${insightsMarkdown(figures)}\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  )
}
