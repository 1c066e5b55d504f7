/**
 * Delivery zones at the size limit, and what they cost everyone else.
 *
 * One process serves two organisations through the real HTTP stack (in-process inject, bearer
 * tokens). Organisation A (Shipments Modify is all it needs) keeps ten zones of 20,000 positions
 * each (an outer ring of 4,000 and four holes of 4,000), all around one area; organisation B only
 * reads one of its customers, one request after another, the whole time. Each round:
 *
 * - saves: the ten zones (created in the first round, replaced in the next ones: every save is
 *   validated again and bumps the zone's revision), each timed;
 * - lookups: GET /api/v1/DeliveryZones/coordinates at a point inside all ten bounding boxes that
 *   lies in a hole of every zone (an empty answer: the lookup's own cost), and at one inside
 *   exactly one zone (the answer carries that zone's 20,000 positions), LOOKUPS each;
 * - autobatch: one POST /api/v1/plans/{id}/autobatch of a plan naming the ten zones, over 1,000
 *   unassigned shipments spread over the area.
 *
 * B's read latency is measured alone first (quiet) and then during the rounds. Goals: a save under
 * 100 ms, a lookup under 5 ms, the autobatch under 1 s, B's p99 during the load within 2x of quiet.
 *
 *   BENCH_DATABASES=embedded npx tsx bench/scenarios-zones-large.ts
 *   BENCH_DATABASES=postgres DATABASE_URL=postgres://... npx tsx bench/scenarios-zones-large.ts
 *
 * BENCH_ROUNDS (3) rounds; BENCH_LOOKUPS (100) lookups of each kind a round. Replaces its section
 * of bench/RESULTS.md (one table row per database, kept from earlier runs of the other database).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCoreApp } from '../src/apps/core/app.js'
import { buildGlobalApp } from '../src/apps/global/app.js'
import { EVENT_HANDLERS, MIGRATIONS } from '../src/apps/modules.js'
import { loadConfig } from '../src/config.js'
import { type Database, openDatabase } from '../src/db/database.js'
import { migrate } from '../src/db/migrator.js'
import type { HttpApp } from '../src/http/kernel.js'
import { MemoryMailer } from '../src/mail/mailer.js'
import { warmPlanningThread } from '../src/modules/delivery/planning-engine/index.js'
import { warmZoneThread } from '../src/modules/delivery/zones/index.js'
import { createServices } from '../src/platform/services.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 100)
const QUIET_SECONDS = 4
const CENTRE = { longitude: 18.5, latitude: -34 }

const circle = (n: number, cx: number, cy: number, r: number) => {
  const ring: number[][] = []
  for (let i = 0; i < n - 1; i++) {
    const a = (2 * Math.PI * i) / (n - 1)
    ring.push([cx + r * Math.cos(a), cy + r * Math.sin(a)])
  }
  ring.push(ring[0] as number[])
  return ring
}

/**
 * Zone k: a 1-degree circle of 4,000 positions with four 0.2-degree holes west, east, south and
 * north of its centre (zone 0's west hole sits north-west instead), shifted east by k/1000 degree
 * (and by `shift` more on replacement, so each save changes the geometry).
 */
export function largeZone(k: number, shift = 0) {
  const cx = CENTRE.longitude + k / 1000 + shift
  const cy = CENTRE.latitude
  const west = k === 0 ? [cx - 0.5, cy + 0.5] : [cx - 0.5, cy]
  return {
    type: 'Polygon',
    coordinates: [
      circle(4000, cx, cy, 1),
      circle(4000, west[0] as number, west[1] as number, 0.2),
      circle(4000, cx + 0.5, cy, 0.2),
      circle(4000, cx, cy - 0.5, 0.2),
      circle(4000, cx, cy + 0.5, 0.2),
    ],
  }
}

/** In the south hole of every zone: inside ten bounding boxes, inside no zone. */
const IN_HOLES = { longitude: CENTRE.longitude + 0.005, latitude: CENTRE.latitude - 0.5 }
/** In the west hole of zones 1 to 9, inside zone 0 (whose west hole is elsewhere). */
const IN_ONE = { longitude: CENTRE.longitude - 0.495, latitude: CENTRE.latitude }

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

export async function organisation(core: HttpApp, global: HttpApp, label: string) {
  const email = `bench-zones-${label}-${Date.now()}@example.com`
  const password = 'correct-horse-battery'
  const registered = await global.inject({
    method: 'POST',
    url: '/api/organizations',
    payload: {
      business: {
        registeredName: `Bench zones ${label} ${Date.now()}`,
        displayName: label,
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
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await core.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    if (response.statusCode !== 200)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
    return response.json().data
  }
  /**
   * A request whose body is sent as prepared text and whose answer is not parsed: this process is
   * also the server, so the client's own JSON work on 0.8 MB bodies would count as the server's.
   */
  const raw = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: string) => {
    const response = await core.inject({
      method,
      url,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(body ? { payload: body } : {}),
    })
    if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode}`)
    return response.body
  }
  return { businessId, call, raw }
}

/** The schema of the organisation a business belongs to (bench data is written there directly). */
export async function schemaNameOf(db: Database, businessId: string): Promise<string> {
  const row = await db.db
    .selectFrom('global.businesses')
    .innerJoin('global.organizations', 'global.organizations.id', 'global.businesses.organization_id')
    .select('global.organizations.schema_name')
    .where('global.businesses.id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.schema_name
}

/** A linear congruential generator: the same seed, the same bench data on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

/** CPU milliseconds this process spent inside `timed` calls, by what they timed. */
const cpu: Record<string, number[]> = {}

/**
 * Times `run`: wall milliseconds; with `label`, the process's CPU time too (on PostgreSQL that is
 * the server's own work, the database being another process; embedded, it includes the database's
 * worker thread). On a shared machine the wall time follows the neighbours, the CPU time less so.
 */
export async function timed(run: () => Promise<unknown>, label?: string) {
  const started = performance.now()
  const startedCpu = process.cpuUsage()
  await run()
  if (label) {
    const used = process.cpuUsage(startedCpu)
    const samples = cpu[label] ?? []
    samples.push((used.user + used.system) / 1000)
    cpu[label] = samples
  }
  return performance.now() - started
}

export interface LargeZoneFigures {
  database: 'postgres' | 'embedded'
  saveMs: number[]
  lookupEmptyMs: number[]
  lookupOneMs: number[]
  autobatchMs: number[]
  assigned: number
  quiet: { p50: number; p99: number; count: number }
  loaded: { p50: number; p99: number; count: number }
  loadAverage: string
  /** Median CPU milliseconds of the process per save, lookup and autobatch. */
  cpuMs: Record<string, number>
}

/**
 * Another organisation's reads, one after another: `during(into)` times them into `into` until the
 * returned stop is awaited; `quiet()` warms up with 50, then times them alone for QUIET_SECONDS.
 */
export function readsAside(read: () => Promise<unknown>) {
  const during = (into: number[]) => {
    let reading = true
    const loop = (async () => {
      while (reading) into.push(await timed(read))
    })()
    return async () => {
      reading = false
      await loop
    }
  }
  const quiet = async () => {
    for (let i = 0; i < 50; i++) await read()
    const times: number[] = []
    const stop = during(times)
    await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000))
    await stop()
    return times
  }
  return { during, quiet }
}

export async function runLargeZones(database: 'postgres' | 'embedded'): Promise<LargeZoneFigures> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cartage-bench-zones-'))
  const databaseUrl = database === 'postgres' ? process.env.DATABASE_URL : undefined
  const config = {
    ...loadConfig({ RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_PER_ACCOUNT: '1000000' }),
    databaseUrl,
    dataDir: tmp,
  }
  const db = await openDatabase({
    migrations: MIGRATIONS,
    databaseUrl,
    dataDir: path.join(tmp, 'db'),
    poolSize: config.dbPoolSize,
    applicationName: 'cartage-bench-zones',
  })
  try {
    await migrate(db)
    const services = await createServices(config, db, false, {
      eventHandlers: EVENT_HANDLERS,
      mailer: new MemoryMailer(),
    })
    const deps = { config, database: db, services }
    const core = await buildCoreApp(deps, false)
    const global = await buildGlobalApp(deps, false)
    // As `serve` does once listening.
    warmPlanningThread()
    warmZoneThread()
    const a = await organisation(core, global, 'a')
    const b = await organisation(core, global, 'b')
    const customer = await b.call('POST', '/api/v1/Customers', { name: 'Reader' })
    const read = () => b.call('GET', `/api/v1/Customers/${customer.id}`)

    const reads = readsAside(read)
    const quiet = await reads.quiet()

    const schema = await schemaNameOf(db, a.businessId)
    const random = seededRandom(7)
    await db.db
      .withSchema(schema)
      .insertInto('shipments')
      .values(
        Array.from({ length: 1000 }, (_, i) => ({
          id: crypto.randomUUID(),
          business_id: a.businessId,
          code: `ZONES-${String(i).padStart(5, '0')}`,
          weight: 1,
          volume: 0.01,
          scheduled_date: new Date('2026-12-01T08:00:00Z'),
          delivery_address: JSON.stringify({
            latitude: CENTRE.latitude - 1 + random() * 2,
            longitude: CENTRE.longitude - 1 + random() * 2,
          }),
        })),
      )
      .execute()

    const loaded: number[] = []
    const stopReading = reads.during(loaded)
    const figures = { saveMs: [] as number[], lookupEmptyMs: [] as number[], lookupOneMs: [] as number[] }
    const autobatchMs: number[] = []
    const zoneIds: string[] = []
    let planId = ''
    let assigned = 0
    let distanceKm = Number.NaN
    for (let round = 0; round < ROUNDS; round++) {
      const bodies = Array.from({ length: 10 }, (_, k) =>
        JSON.stringify({ name: `Large ${k}`, polygon: largeZone(k, round / 10_000) }),
      )
      for (let k = 0; k < 10; k++) {
        figures.saveMs.push(
          await timed(async () => {
            if (round > 0) return a.raw('PUT', `/api/v1/DeliveryZones/${zoneIds[k]}`, bodies[k])
            // The zone's id is the first field of the answer.
            const answer = await a.raw('POST', '/api/v1/DeliveryZones', bodies[k])
            zoneIds.push(/"id":"([^"]+)"/.exec(answer)?.[1] ?? '')
          }, 'save'),
        )
      }
      if (round === 0)
        planId = (
          await a.call('POST', '/api/v1/plans', {
            scheduledDate: '2026-12-01',
            deliveryZoneIds: zoneIds,
            depot: { latitude: CENTRE.latitude, longitude: CENTRE.longitude },
          })
        ).id
      for (const [point, into, expected, label] of [
        [IN_HOLES, figures.lookupEmptyMs, 0, 'lookupEmpty'],
        [IN_ONE, figures.lookupOneMs, 1, 'lookupOne'],
      ] as const) {
        const url = `/api/v1/DeliveryZones/coordinates?latitude=${point.latitude}&longitude=${point.longitude}`
        for (let i = 0; i < LOOKUPS; i++) {
          let found = -1
          into.push(
            await timed(
              async () => (found = Number(/"count":(\d+)/.exec(await a.raw('GET', url))?.[1])),
              label,
            ),
          )
          if (found !== expected) throw new Error(`lookup at ${url}: ${found} zones, expected ${expected}`)
        }
      }
      autobatchMs.push(await timed(() => a.call('POST', `/api/v1/plans/${planId}/autobatch`), 'autobatch'))
      const after = await a.call('GET', `/api/v1/plans/${planId}`)
      assigned = after.totals.shipmentCount
      distanceKm = after.totals.distanceKm ?? Number.NaN
      process.stdout.write(
        `${database} round ${round + 1}: save p50 ${quantile(figures.saveMs, 0.5).toFixed(1)} ms, lookup p50 ${quantile(figures.lookupEmptyMs, 0.5).toFixed(2)} / ${quantile(figures.lookupOneMs, 0.5).toFixed(2)} ms, autobatch ${autobatchMs.at(-1)?.toFixed(0)} ms (${assigned} assigned, ${distanceKm.toFixed(1)} km)\n`,
      )
    }
    await stopReading()
    await Promise.all([core.close(), global.close()])
    await services.close()
    const summary = (values: number[]) => ({
      p50: quantile(values, 0.5),
      p99: quantile(values, 0.99),
      count: values.length,
    })
    return {
      database,
      ...figures,
      autobatchMs,
      assigned,
      quiet: summary(quiet),
      loaded: summary(loaded),
      cpuMs: Object.fromEntries(Object.entries(cpu).map(([label, values]) => [label, quantile(values, 0.5)])),
      loadAverage: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    }
  } finally {
    await db.close()
    rmSync(tmp, { recursive: true, force: true })
  }
}

const HEADING = '## Delivery zones at the size limit'
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0))
const goal = (met: boolean) => (met ? 'met' : '**not met**')

function row(f: LargeZoneFigures) {
  const save = quantile(f.saveMs, 0.5)
  const empty = quantile(f.lookupEmptyMs, 0.5)
  const one = quantile(f.lookupOneMs, 0.5)
  const batch = quantile(f.autobatchMs, 0.5)
  const ratio = f.loaded.p99 / f.quiet.p99
  const cpuOf = (label: string) => ms(f.cpuMs[label] ?? Number.NaN)
  return (
    `| ${f.database} | ${ms(save)} (max ${ms(Math.max(...f.saveMs))}; CPU ${cpuOf('save')}): ${goal(save < 100)} ` +
    `| ${ms(empty)} (p99 ${ms(quantile(f.lookupEmptyMs, 0.99))}; CPU ${cpuOf('lookupEmpty')}): ${goal(empty < 5)} ` +
    `| ${ms(one)} (p99 ${ms(quantile(f.lookupOneMs, 0.99))}; CPU ${cpuOf('lookupOne')}) ` +
    `| ${ms(batch)} (${f.autobatchMs.map((m) => m.toFixed(0)).join(', ')}; CPU ${cpuOf('autobatch')}; ${f.assigned} assigned): ${goal(batch < 1000)} ` +
    `| ${ms(f.quiet.p50)} / ${ms(f.quiet.p99)} (${f.quiet.count}) | ${ms(f.loaded.p50)} / ${ms(f.loaded.p99)} (${f.loaded.count}) ` +
    `| **${ratio.toFixed(2)}x**: ${goal(ratio <= 2)} | ${f.loadAverage} |`
  )
}

function replaceSection(results: LargeZoneFigures[]) {
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf(HEADING)
  const end = start < 0 ? -1 : text.indexOf('\n## ', start + 1)
  const old = start < 0 ? '' : text.slice(start, end < 0 ? undefined : end)
  // Rows of databases not measured this time stay as they were.
  const kept = old
    .split('\n')
    .filter((line) => /^\| (postgres|embedded) \|/.test(line))
    .filter((line) => !results.some((r) => line.startsWith(`| ${r.database} |`)))
  const rows = [...kept, ...results.map(row)].sort()
  const section =
    `${HEADING}\n\n` +
    'Organisation A keeps ten zones of 20,000 positions (an outer ring of 4,000 and four holes of 4,000) around one ' +
    "area; organisation B reads one of its customers, one request after another, alone (quiet) and then during A's " +
    `rounds: saving the ten zones, ${LOOKUPS} point lookups of each kind (a point in all ten bounding boxes that lies in a hole ` +
    'of every zone, so the answer is empty; one inside exactly one zone, whose 20,000 positions the answer carries), and one ' +
    'autobatch of 1,000 shipments over the ten zones. One process, in-process inject; medians over ' +
    `${ROUNDS} rounds, wall time with the median CPU time of the process beside it (on PostgreSQL the server's own work; ` +
    `embedded, the database's worker thread too). Goals: a save under 100 ms, the lookup under 5 ms, the autobatch under 1 s, B's p99 during the load ` +
    'within 2x of quiet. `BENCH_DATABASES=embedded npx tsx bench/scenarios-zones-large.ts`, then ' +
    '`BENCH_DATABASES=postgres DATABASE_URL=... npx tsx bench/scenarios-zones-large.ts` ' +
    `(${os.cpus().length} cores, shared; the load average is the one-, five- and fifteen-minute figure at the end).\n\n` +
    '| database | save ms p50 | lookup ms p50, empty answer | lookup ms p50, one zone in the answer | autobatch ms | B quiet p50 / p99 ms (reads) | B during p50 / p99 ms (reads) | B p99 during / quiet | load average |\n' +
    '|---|---|---|---|---|---|---|---|---|\n' +
    `${rows.join('\n')}\n`
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
  const results: LargeZoneFigures[] = []
  for (const database of databases) results.push(await runLargeZones(database))
  for (const r of results) process.stdout.write(`${row(r)}\n`)
  replaceSection(results)
  process.stdout.write('replaced the large-zones section of bench/RESULTS.md\n')
}
