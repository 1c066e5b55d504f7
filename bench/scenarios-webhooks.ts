/**
 * The cost of the webhook outbox on a create: POST /api/v1/orders through the real HTTP stack
 * (in-process inject, bearer token) for an organisation with one enabled endpoint subscribed to
 * order.created (each create also writes the event and its delivery, in the same transaction)
 * against one without webhooks (the handler's one-statement check finds no endpoint and writes
 * nothing). The worker is not running, so only the write is measured.
 *
 * BENCH_ROUNDS (8) rounds of BENCH_SECONDS (2) each side, BENCH_CONNECTIONS (4) requests in flight,
 * the side that goes first alternating; the ratio is the median of the per-round ratios (with /
 * without). Goal: >= 0.75.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/scenarios-webhooks.ts   # PostgreSQL and embedded
 *   BENCH_DATABASES=embedded npx tsx bench/scenarios-webhooks.ts      # one of them
 *
 * Replaces its section of bench/RESULTS.md.
 */

import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import type { HttpApp } from '../src/http/kernel.js'
import { benchCartage } from './bench-cartage.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4)
export const WEBHOOK_WRITE_GOAL = 0.75

interface Figures {
  database: 'postgres' | 'embedded'
  withWebhooks: number
  without: number
  ratios: number[]
  median: number
  outboxRows: { with: number; without: number }
  loadAverage: string
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function organisation(core: HttpApp, global: HttpApp, label: string) {
  const email = `bench-webhooks-${label}-${Date.now()}@example.com`
  const password = 'correct-horse-battery'
  const registered = await global.inject({
    method: 'POST',
    url: '/api/organizations',
    payload: {
      business: {
        registeredName: `Bench webhooks ${label} ${Date.now()}`,
        displayName: 'Bench',
        email: 'ops@example.com',
      },
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
  const login = await global.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  const headers = {
    authorization: `Bearer ${login.json().data.session.accessToken}`,
    'x-business-id': businessId,
  }
  const call = async (url: string, payload: object) => {
    const response = await core.inject({ method: 'POST', url, headers, payload })
    if (response.statusCode !== 200) throw new Error(`POST ${url}: ${response.statusCode} ${response.body}`)
    return response.json().data
  }
  const customer = await call('/api/v1/Customers', { name: `Customer ${label}` })
  const order = { customerId: customer.id, lines: [{ description: 'Widget', quantity: 2, unitPrice: 9.5 }] }
  return { businessId, call, createOrder: () => call('/api/v1/orders', order) }
}

/** Creates orders for `seconds` with `CONNECTIONS` in flight; creates per second. */
async function throughput(createOrder: () => Promise<unknown>, seconds: number) {
  const deadline = performance.now() + seconds * 1000
  let done = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        await createOrder()
        done++
      }
    }),
  )
  return done / seconds
}

export async function runWebhookWrites(database: 'postgres' | 'embedded'): Promise<Figures> {
  const cartage = await benchCartage(database, 'webhooks')
  try {
    const { core, global, database: db } = cartage
    const withHooks = await organisation(core, global, 'with')
    const without = await organisation(core, global, 'without')
    await withHooks.call('/api/v1/webhooks/endpoints', {
      url: 'https://hooks.example.com/bench',
      eventTypes: ['order.created', 'order.status_changed'],
    })
    // Warm-up: statements compiled and prepared, caches filled, on both sides.
    await throughput(withHooks.createOrder, 1)
    await throughput(without.createOrder, 1)
    const rates = { with: [] as number[], without: [] as number[] }
    const ratios: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const sides = round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)
      const rate: Record<'with' | 'without', number> = { with: 0, without: 0 }
      for (const side of sides)
        rate[side] = await throughput(side === 'with' ? withHooks.createOrder : without.createOrder, SECONDS)
      rates.with.push(rate.with)
      rates.without.push(rate.without)
      ratios.push(rate.with / rate.without)
      process.stdout.write(
        `${database} round ${round + 1}: with ${rate.with.toFixed(1)}/s, without ${rate.without.toFixed(1)}/s, ratio ${(rate.with / rate.without).toFixed(2)}\n`,
      )
    }
    const count = async (businessId: string) => {
      const schema = (
        await db.db
          .selectFrom('global.businesses')
          .innerJoin('global.organizations', 'global.organizations.id', 'global.businesses.organization_id')
          .select('global.organizations.schema_name')
          .where('global.businesses.id', '=', businessId)
          .executeTakeFirstOrThrow()
      ).schema_name
      const row = await db.db
        .withSchema(schema)
        .selectFrom('webhook_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('business_id', '=', businessId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    }
    const figures: Figures = {
      database,
      withWebhooks: median(rates.with),
      without: median(rates.without),
      ratios,
      median: median(ratios),
      outboxRows: { with: await count(withHooks.businessId), without: await count(without.businessId) },
      loadAverage: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    }
    return figures
  } finally {
    await cartage.close()
  }
}

function markdown(results: Figures[]) {
  const rows = results.map(
    (r) =>
      `| ${r.database} | ${r.withWebhooks.toFixed(1)} | ${r.without.toFixed(1)} | **${r.median.toFixed(2)}** | ${r.ratios.map((x) => x.toFixed(2)).join(' ')} | ${r.outboxRows.with.toLocaleString('en')} / ${r.outboxRows.without} | ${r.loadAverage} |`,
  )
  return (
    '## Webhook outbox on a create\n\n' +
    `\`POST /api/v1/orders\` (bearer, ${CONNECTIONS} in flight, in-process inject), ${ROUNDS} interleaved rounds of ${SECONDS} s: ` +
    'an organisation with one enabled endpoint subscribed to `order.created` (the event and its delivery written in the ' +
    'same transaction) against one without webhooks. Goal: ratio >= 0.75. ' +
    `${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores; \`DATABASE_URL=... npx tsx bench/scenarios-webhooks.ts\`.\n\n` +
    '| database | with webhooks (creates/s, median) | without | ratio (median) | per round | outbox events with / without | load average |\n' +
    '|---|---|---|---|---|---|---|\n' +
    `${rows.join('\n')}\n`
  )
}

function replaceSection(section: string) {
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
  const text = readFileSync(file, 'utf8')
  const heading = section.slice(0, section.indexOf('\n'))
  const start = text.indexOf(heading)
  const end = start < 0 ? -1 : text.indexOf('\n## ', start + 1)
  const next =
    start < 0
      ? `${text.trimEnd()}\n\n${section}`
      : `${text.slice(0, start)}${section}${end < 0 ? '' : text.slice(end)}`
  writeFileSync(file, next)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = (process.env.BENCH_DATABASES ?? 'postgres,embedded').split(',').map((d) => d.trim())
  const databases = (['postgres', 'embedded'] as const).filter(
    (d) => wanted.includes(d) && (d === 'embedded' || Boolean(process.env.DATABASE_URL)),
  )
  const results: Figures[] = []
  for (const database of databases) results.push(await runWebhookWrites(database))
  const section = markdown(results)
  process.stdout.write(`\n${section}`)
  replaceSection(section)
  process.stdout.write('replaced the webhook section of bench/RESULTS.md\n')
}
