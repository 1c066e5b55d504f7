/**
 * Planning a 1,000-stop day, and what it costs everyone else.
 *
 * One process serves two organisations through the real HTTP stack (in-process inject, bearer
 * tokens). Organisation A has 60 vans (08:00-18:00 from one depot) and 1,000 Pending shipments of one
 * day spread over 40 km, each with a two-hour delivery window; organisation B only reads one of its
 * customers, one request after another, the whole time. B's read latency is measured alone first
 * (quiet), then while A plans the day (`POST /api/v1/plans/plan-day`), which runs the planning
 * engine in its worker thread. Goals: the day planned under 20 s, B's p99 during it within 2x of
 * quiet (the engine never holds the event loop).
 *
 *   BENCH_DATABASES=embedded npx tsx bench/scenarios-plan-day.ts
 *   BENCH_DATABASES=postgres DATABASE_URL=postgres://... npx tsx bench/scenarios-plan-day.ts
 *
 * Prints its figures; add them to bench/RESULTS.md by hand ("Planning a day beside another organisation").
 */

import os from 'node:os'
import { benchCartage } from './bench-cartage.js'
import {
  organisation,
  quantile,
  readsAside,
  schemaNameOf,
  seededRandom,
  timed,
} from './scenarios-zones-large.js'

const STOPS = Number(process.env.BENCH_STOPS ?? 1000)
const VANS = 60
const DEPOT = { latitude: -33.92, longitude: 18.42 }
const DAY = '2026-12-01'

export interface PlanDayFigures {
  database: 'postgres' | 'embedded'
  planMs: number
  planned: number
  leftOut: number
  vansUsed: number
  quiet: { p50: number; p99: number; count: number }
  during: { p50: number; p99: number; count: number }
  loadAverage: string
}

export async function runPlanDay(database: 'postgres' | 'embedded'): Promise<PlanDayFigures> {
  const cartage = await benchCartage(database, 'plan-day')
  try {
    const { core, global, database: db } = cartage
    const a = await organisation(core, global, 'day-a')
    const b = await organisation(core, global, 'day-b')
    const customer = await b.call('POST', '/api/v1/Customers', { name: 'Reader' })
    const read = () => b.call('GET', `/api/v1/Customers/${customer.id}`)

    const vehicleIds: string[] = []
    for (let i = 0; i < VANS; i++)
      vehicleIds.push(
        (
          await a.call('POST', '/api/v1/vehicles', {
            registration: `DAY-${String(i).padStart(3, '0')}`,
            name: `Van ${i}`,
            maxWeight: 800,
            shiftStart: '08:00',
            shiftEnd: '18:00',
            startLocation: DEPOT,
          })
        ).id,
      )
    const schema = await schemaNameOf(db, a.businessId)
    const random = seededRandom(11)
    // Written directly: the shipments' creation is not what is measured.
    await db.db
      .withSchema(schema)
      .insertInto('shipments')
      .values(
        Array.from({ length: STOPS }, (_, i) => {
          const opens = 8 + Math.floor(random() * 8)
          return {
            id: crypto.randomUUID(),
            business_id: a.businessId,
            code: `DAY-${String(i).padStart(5, '0')}`,
            weight: 5 + Math.floor(random() * 20),
            volume: 0.05,
            scheduled_date: new Date(`${DAY}T08:00:00Z`),
            delivery_address: JSON.stringify({
              latitude: DEPOT.latitude - 0.18 + random() * 0.36,
              longitude: DEPOT.longitude - 0.2 + random() * 0.4,
            }),
            delivery_windows: JSON.stringify([
              {
                start: `${DAY}T${String(opens).padStart(2, '0')}:00:00.000Z`,
                end: `${DAY}T${String(opens + 2).padStart(2, '0')}:00:00.000Z`,
              },
            ]),
          }
        }),
      )
      .execute()

    const reads = readsAside(read)
    const quiet = await reads.quiet()

    const during: number[] = []
    const stopReading = reads.during(during)
    let answer: { plans?: { stops?: unknown[] }[]; leftOut?: unknown[] } = {}
    const planMs = await timed(async () => {
      answer = await a.call('POST', '/api/v1/plans/plan-day', { date: DAY, vehicleIds, depot: DEPOT })
    })
    await stopReading()
    const summary = (values: number[]) => ({
      p50: quantile(values, 0.5),
      p99: quantile(values, 0.99),
      count: values.length,
    })
    const plans = answer.plans ?? []
    return {
      database,
      planMs,
      planned: plans.reduce((n, p) => n + (p.stops?.length ?? 0), 0),
      leftOut: answer.leftOut?.length ?? 0,
      vansUsed: plans.filter((p) => (p.stops?.length ?? 0) > 0).length,
      quiet: summary(quiet),
      during: summary(during),
      loadAverage: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    }
  } finally {
    await cartage.close()
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0))

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = (process.env.BENCH_DATABASES ?? 'postgres,embedded').split(',').map((d) => d.trim())
  const databases = (['postgres', 'embedded'] as const).filter(
    (d) => wanted.includes(d) && (d === 'embedded' || Boolean(process.env.DATABASE_URL)),
  )
  for (const database of databases) {
    const f = await runPlanDay(database)
    const ratio = f.during.p99 / f.quiet.p99
    process.stdout.write(
      `| ${f.database} | ${(f.planMs / 1000).toFixed(1)} s: ${f.planMs < 20_000 ? 'met' : '**not met**'} ` +
        `| ${f.planned} planned on ${f.vansUsed} vans, ${f.leftOut} left out ` +
        `| ${ms(f.quiet.p50)} / ${ms(f.quiet.p99)} (${f.quiet.count}) | ${ms(f.during.p50)} / ${ms(f.during.p99)} (${f.during.count}) ` +
        `| **${ratio.toFixed(2)}x**: ${ratio <= 2 ? 'met' : '**not met**'} | ${f.loadAverage} |\n`,
    )
  }
}
