/**
 * `npm run bench`: a real Cartage route against a bare Fastify + pg route running the same SQL,
 * alternating rounds, on PostgreSQL (when DATABASE_URL is set) and on the embedded database.
 * Servers are separate processes; this process only generates load (autocannon).
 * Env: BENCH_SECONDS (2), BENCH_ROUNDS (8), BENCH_WARMUP (2), BENCH_CONNECTIONS (10), DB_POOL_SIZE,
 * RATE_LIMIT_PER_IP (1000000 here, so the load is not refused), ACCESS_TOKEN_TTL_SECONDS (86400
 * here, so the seeded token outlives a long run), BENCH_ONLY (scenario names), BENCH_DATABASES
 * (postgres,embedded), BENCH_CPU_PROF (directory: profile both servers, see bench/profile.ts).
 * `npm run bench -- --vrptw` runs only the planning engine on the VRPTW benchmarks (bench/vrptw.ts).
 * `npm run bench -- --scale` adds the heavy scale scenarios (bench/scale.ts: 1,000,000 customers;
 * bench/schemas.ts: 1,000 organisation schemas).
 * `BENCH_DATABASES=none npm run bench -- --scale` runs only those; `-- --schemas` only the schemas one.
 * Stock ledger writes (bench/scenarios-stock-writes.ts: bulk load, back-dated receipts) end a full
 * run, or a BENCH_ONLY run with `-- --stock-writes`.
 * Memory of the built server (bench/memory.ts) ends a full run; `-- --memory-only` measures only that.
 * The web console's bundle and first load (bench/console.ts) come before it; `-- --console-only` measures only those.
 * BENCH_AGAINST="NAME=value ..." puts Cartage itself, started with those settings, in the baseline's
 * place: an A/B of a setting in the same interleaved rounds (printed only; RESULTS.md is left alone).
 */

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { MIGRATIONS } from '../src/apps/modules.js'
import { openDatabase } from '../src/db/database.js'
import { benchServerEnv, type ServerProcess, startServer } from './children.js'
import { consoleFigures, consoleMarkdown, replaceConsoleSection } from './console.js'
import { measure, median, type Sample, summarise, type Target } from './load.js'
import { memorySection, replaceMemorySection } from './memory.js'
import { type DatabaseResult, formatDatabase, printDatabase, type ScenarioResult } from './report.js'
import { resolveSeed } from './resolve-seed.js'
import { benchScale } from './scale.js'
import type { Seed } from './scenario-types.js'
import { type Scenario, selectedScenarios } from './scenarios.js'
import { runAutobatch, seedZones } from './scenarios-delivery.js'
import { insightsMarkdown, runInsights } from './scenarios-insights.js'
import { seedManufacturing } from './scenarios-manufacturing.js'
import { seedPurchaseOrders } from './scenarios-purchase-orders.js'
import { seedPurchasing } from './scenarios-purchasing.js'
import { seedSales } from './scenarios-sales.js'
import { runStockWrites, stockWriteDatabases, stockWritesMarkdown } from './scenarios-stock-writes.js'
import { seedTransfers } from './scenarios-transfers.js'
import { benchSchemas } from './schemas.js'
import { seed } from './seed.js'
import { seedConfirmations, seedDispatches, seedTracking } from './seed-order-to-door.js'
import { targets } from './targets.js'

function envInt(name: string, fallback: number): number {
  const raw = process.env[name]
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`)
  return value
}

const settings = {
  seconds: envInt('BENCH_SECONDS', 2),
  rounds: envInt('BENCH_ROUNDS', 8),
  warmup: envInt('BENCH_WARMUP', 2),
  connections: envInt('BENCH_CONNECTIONS', 10),
}

/** BENCH_AGAINST: the settings of the second Cartage server, when the bench compares Cartage with itself. */
const against = process.env.BENCH_AGAINST?.trim()
  ? Object.fromEntries(
      process.env.BENCH_AGAINST.trim()
        .split(/\s+/)
        .map((assignment) => {
          const [name, ...value] = assignment.split('=')
          if (!name || value.length === 0) throw new Error(`BENCH_AGAINST: ${assignment} is not NAME=value`)
          return [name, value.join('=')]
        }),
    )
  : undefined

const base = (port: number | undefined) => `http://127.0.0.1:${port}`
/** With BENCH_CPU_PROF, each server writes its .cpuprofile under <dir>/<server>. */
const profileDir = (server: string) =>
  process.env.BENCH_CPU_PROF ? path.join(process.env.BENCH_CPU_PROF, server) : undefined
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** One request to each side first, so a wrong path or missing seed is an error, not a fast 404. */
async function check(scenario: Scenario, cartage: Target, baseline: Target) {
  const send = (t: Target) =>
    fetch(t.nextPath ? new URL(t.nextPath(), t.url) : t.url, {
      method: t.method,
      headers: t.headers,
      body: t.body ?? null,
    })
  // JSON, or the text of anything else (a page).
  const read = (r: Response) => (r.headers.get('content-type')?.includes('json') ? r.json() : r.text())
  const [c, b] = await Promise.all([send(cartage), send(baseline)])
  const [cJson, bJson] = await Promise.all([read(c), read(b)])
  if (c.status !== 200 || !scenario.cartage.check(cJson))
    throw new Error(`${scenario.name}: Cartage answered ${c.status} ${JSON.stringify(cJson)}`)
  if (against) {
    if (b.status !== 200 || !scenario.cartage.check(bJson))
      throw new Error(
        `${scenario.name}: Cartage (BENCH_AGAINST) answered ${b.status} ${JSON.stringify(bJson)}`,
      )
    return
  }
  const counts = b.headers.get('x-bench-rows')
  if (b.status !== 200 || counts !== JSON.stringify(scenario.baseline.rows))
    throw new Error(
      `${scenario.name}: baseline answered ${b.status}, rows ${counts}: ${JSON.stringify(bJson)}`,
    )
  // The bare route must answer the same JSON shape (same fields, first item of a page).
  if (scenario.baseline.respond && shapeOf(cJson) !== shapeOf(bJson))
    throw new Error(`${scenario.name}: baseline JSON differs: ${shapeOf(cJson)} vs ${shapeOf(bJson)}`)
}

/** Field names, recursively (first element of arrays): equal shapes, values aside. */
function shapeOf(json: unknown): string {
  if (Array.isArray(json)) return `[${json.length > 0 ? shapeOf(json[0]) : ''}]`
  if (typeof json !== 'object' || json === null) return typeof json
  const entries = Object.entries(json as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))
  return `{${entries.map(([k, v]) => `${k}:${shapeOf(v)}`).join(',')}}`
}

async function runScenario(scenario: Scenario, cartage: Target, baseline: Target): Promise<ScenarioResult> {
  await check(scenario, cartage, baseline)
  const { rounds, warmup } = settings
  const connections = scenario.connections ?? settings.connections
  const seconds = Math.max(settings.seconds, scenario.minRoundSeconds ?? 0)
  // One request each in check().
  const served = { cartage: 1, baseline: 1 }
  if (warmup > 0) {
    served.cartage += (await measure(cartage, warmup, connections)).requests
    served.baseline += (await measure(baseline, warmup, connections)).requests
  }
  const samples: { cartage: Sample[]; baseline: Sample[] } = { cartage: [], baseline: [] }
  for (let round = 1; round <= rounds; round++) {
    // The order alternates (ABBA...), so a load that rises or falls during the pair favours neither.
    const first = round % 2 === 1 ? 'cartage' : 'baseline'
    const second = first === 'cartage' ? 'baseline' : 'cartage'
    const targetOf = { cartage, baseline }
    samples[first].push(await measure(targetOf[first], seconds, connections))
    samples[second].push(await measure(targetOf[second], seconds, connections))
    process.stdout.write(
      `  ${scenario.name} round ${round}/${rounds}: cartage ${samples.cartage.at(-1)?.rps.toFixed(0)} req/s, ` +
        `baseline ${samples.baseline.at(-1)?.rps.toFixed(0)} req/s\n`,
    )
  }
  let latency: ScenarioResult['latency']
  if (scenario.latencyGoalMs) {
    const single: { cartage: Sample[]; baseline: Sample[] } = { cartage: [], baseline: [] }
    for (let round = 1; round <= rounds; round++) {
      single.cartage.push(await measure(cartage, seconds, 1))
      single.baseline.push(await measure(baseline, seconds, 1))
    }
    latency = {
      goalMs: scenario.latencyGoalMs,
      cartageP50: summarise(single.cartage).p50,
      baselineP50: summarise(single.baseline).p50,
    }
  }
  const c = summarise(samples.cartage)
  const b = summarise(samples.baseline)
  const roundRatios = samples.cartage.map((cs, i) => cs.rps / (samples.baseline[i]?.rps || Number.NaN))
  return {
    name: scenario.name,
    kind: scenario.kind,
    cartage: { median: c, rounds: samples.cartage },
    baseline: { median: b, rounds: samples.baseline },
    // The median of the per-round ratios: each compares two measurements seconds apart, so a
    // neighbour's load that comes and goes moves single rounds, not the median.
    ratio: median(roundRatios),
    roundRatios,
    ...(latency ? { latency } : {}),
    served: { cartage: served.cartage + c.requests, baseline: served.baseline + b.requests },
  }
}

/**
 * Data too large to create through the API in a bench run (100,000 ledger entries, a 50-line BOM,
 * 500 zones), inserted straight into the seeded organisation's schema; once per organisation.
 */
async function seedVolumes(env: NodeJS.ProcessEnv, seedData: Seed): Promise<void> {
  const database = await openDatabase({
    migrations: MIGRATIONS,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.CARTAGE_DATA_DIR ?? '',
    poolSize: 2,
    applicationName: 'cartage-bench-seed',
  })
  try {
    const resolved = await resolveSeed(database.pool, seedData)
    await seedManufacturing(database.pool, resolved)
    // After the manufacturing volumes: the reservations hold the 100,000-entry product.
    await seedSales(database.pool, resolved)
    await seedZones(database.pool, resolved)
    await seedPurchasing(database.pool, resolved)
    await seedTransfers(database.pool, resolved)
    await seedPurchaseOrders(database.pool, resolved)
    await seedConfirmations(database.pool, resolved)
    await seedDispatches(database.pool, resolved)
    await seedTracking(database.pool, resolved)
  } finally {
    await database.close()
  }
}

async function benchDatabase(database: DatabaseResult['database']): Promise<DatabaseResult> {
  process.stdout.write(`\n${database}: starting servers and seeding\n`)
  const env = benchServerEnv()
  const tmp = database === 'embedded' ? mkdtempSync(path.join(os.tmpdir(), 'cartage-bench-')) : ''
  if (database === 'embedded') {
    delete env.DATABASE_URL
    env.CARTAGE_DATA_DIR = path.join(tmp, 'cartage')
  }
  const running: ServerProcess[] = []
  try {
    let cartage = await startServer('cartage-server.ts', env)
    running.push(cartage)
    const seedData = await seed(base(cartage.ports.global), base(cartage.ports.core))
    const baselineEnv: NodeJS.ProcessEnv = { ...env, BENCH_SEED: JSON.stringify(seedData) }
    if (database === 'postgres') await seedVolumes(env, seedData)
    if (database === 'embedded') {
      // PGlite allows one process per directory: stop cleanly, add the volumes, copy for the
      // baseline, restart.
      await cartage.stop()
      await seedVolumes(env, seedData)
      baselineEnv.CARTAGE_DATA_DIR = path.join(tmp, 'baseline')
      cpSync(env.CARTAGE_DATA_DIR ?? '', baselineEnv.CARTAGE_DATA_DIR, { recursive: true })
    }
    if (database === 'embedded' || process.env.BENCH_CPU_PROF) {
      // Profiled (BENCH_CPU_PROF) from here on only: seeding's password hashing would drown the routes.
      await cartage.stop()
      cartage = await startServer('cartage-server.ts', env, profileDir('cartage'))
      running.push(cartage)
    }
    const baseline = against
      ? await startServer('cartage-server.ts', { ...baselineEnv, ...against }, profileDir('baseline'))
      : await startServer('baseline-server.ts', baselineEnv, profileDir('baseline'))
    running.push(baseline)

    const results: ScenarioResult[] = []
    const loadBefore = loadAverage()
    for (const scenario of selectedScenarios()) {
      const t = targets(scenario, seedData, cartage.ports, baseline.ports.baseline ?? 0)
      const other = against ? targets(scenario, seedData, baseline.ports, 0).cartage : t.baseline
      results.push(await runScenario(scenario, t.cartage, other))
    }
    return { database, scenarios: results, loadAverage: { before: loadBefore, after: loadAverage() } }
  } finally {
    await Promise.all(running.map((server) => server.stop()))
    if (tmp) rmSync(tmp, { recursive: true, force: true })
  }
}

/** Further sections for RESULTS.md (the scale scenarios). */
const extraSections: string[] = []

if (process.argv.includes('--console-only')) {
  replaceConsoleSection(consoleMarkdown(await consoleFigures()))
  process.stdout.write('replaced the Web console section of bench/RESULTS.md\n')
  process.exit(0)
}

if (process.argv.includes('--vrptw')) {
  // The planning engine on the public VRPTW benchmarks: no server, no database (bench/vrptw.ts).
  const { runVrptwBench } = await import('./vrptw.js')
  await runVrptwBench()
  process.exit(0)
}

if (process.argv.includes('--memory-only')) {
  replaceMemorySection(memorySection(process.env.DATABASE_URL))
  process.stdout.write('replaced the Memory section of bench/RESULTS.md\n')
  process.exit(0)
}

const databases = (process.env.BENCH_DATABASES ?? 'postgres,embedded').split(',').map((d) => d.trim())
const results: DatabaseResult[] = []
if (!databases.includes('postgres'))
  results.push({ database: 'postgres', skipped: 'not in BENCH_DATABASES', scenarios: [] })
else if (process.env.DATABASE_URL) results.push(await benchDatabase('postgres'))
else results.push({ database: 'postgres', skipped: 'DATABASE_URL is not set', scenarios: [] })
if (databases.includes('embedded')) results.push(await benchDatabase('embedded'))
else results.push({ database: 'embedded', skipped: 'not in BENCH_DATABASES', scenarios: [] })

if (process.env.DATABASE_URL && !process.env.BENCH_ONLY) {
  process.stdout.write('\npostgres: autobatch of 1,000 shipments over 20 zones\n')
  const figures = await runAutobatch(process.env.DATABASE_URL)
  extraSections.push(
    '## Autobatch (PostgreSQL)\n\n' +
      `One POST /api/v1/plans/{id}/autobatch over 1,000 unassigned shipments and 20 zones (one with a hole), ` +
      `timed end to end through the HTTP stack (bench/scenarios-delivery.ts): **${figures.autobatchMs.toFixed(0)} ms**, ` +
      `${figures.autobatchAssigned} shipments assigned within the vehicle's capacity (goal: under 1 s).\n`,
  )
}

if (!process.env.BENCH_ONLY || process.argv.includes('--stock-writes')) {
  const figures = []
  for (const database of stockWriteDatabases()) figures.push(await runStockWrites(database))
  if (figures.length > 0) extraSections.push(stockWritesMarkdown(figures))
}

if (process.argv.includes('--scale') || process.argv.includes('--schemas')) {
  const scaleEnv = { RATE_LIMIT_PER_ACCOUNT: '1000000', ...benchServerEnv() }
  if (process.argv.includes('--scale')) extraSections.push(await benchScale(scaleEnv))
  extraSections.push(await benchSchemas(scaleEnv))
}

if (process.env.DATABASE_URL && (process.argv.includes('--scale') || process.argv.includes('--insights'))) {
  process.stdout.write('\npostgres: dashboard insights with 1,000,000 shipments and 200,000 orders\n')
  extraSections.push(insightsMarkdown(await runInsights(process.env.DATABASE_URL)))
}

if (process.env.BENCH_CONSOLE !== '0' && !process.env.BENCH_ONLY) {
  process.stdout.write('\nweb console: bundle and first load in Chromium\n')
  extraSections.push(consoleMarkdown(await consoleFigures()))
}

if (process.env.BENCH_MEMORY !== '0' && !process.env.BENCH_ONLY) {
  process.stdout.write('\nmemory of the built server\n')
  extraSections.push(memorySection(process.env.DATABASE_URL))
}

const summary =
  (against
    ? `Cartage vs Cartage with ${process.env.BENCH_AGAINST?.trim()} (in the baseline's column); `
    : `Cartage vs a bare Fastify + pg route (hand-written, prepared, one statement per item or page, same JSON); `) +
  `${settings.rounds} interleaved round(s) of ${settings.seconds} s each (longer where a scenario says so), order alternating, ${settings.connections} connections (fewer where a scenario says so); ` +
  `req/s and latencies are medians over the rounds, the ratio is the median of the per-round ratios\n`
process.stdout.write(`\n${summary}`)
for (const result of results) printDatabase(result)
if (against) process.exit(0)
await writeResultsMarkdown(summary, results)
if (process.env.BENCH_CPU_PROF) {
  for (const { database, scenarios: done } of results.filter((r) => !r.skipped)) {
    const sum = (side: 'cartage' | 'baseline') => done.reduce((n, s) => n + s.served[side], 0)
    process.stdout.write(
      `${database}: profiled servers answered cartage ${sum('cartage')}, baseline ${sum('baseline')} requests ` +
        '(bench/profile.ts --requests)\n',
    )
  }
}

const outDir = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(outDir, { recursive: true })
const outFile = path.join(outDir, 'latest.json')
writeFileSync(
  outFile,
  `${JSON.stringify({ finishedAt: new Date().toISOString(), settings, cpus: os.cpus().length, node: process.version, results }, null, 2)}\n`,
)
process.stdout.write(`\nwrote ${path.relative(process.cwd(), outFile)}\n`)

/** bench/RESULTS.md: the last run's table with the machine, the date and the exact command. */
async function writeResultsMarkdown(summary: string, done: DatabaseResult[]) {
  let postgresVersion = 'not measured'
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    postgresVersion =
      (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?'
    await client.end()
  }
  const env = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_') || name === 'DB_POOL_SIZE')
    .map(([name, value]) => `${name}=${value} `)
    .join('')
  const url = process.env.DATABASE_URL ? 'DATABASE_URL=postgres://… ' : ''
  const text =
    '# Bench results (last run)\n\n' +
    `- Date: ${new Date().toISOString()}\n` +
    `- Command: \`${env}${url}npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`\n` +
    `- Machine: ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ` +
    `Node ${process.version}, PostgreSQL ${postgresVersion}, ${os.platform()} ${os.release()}\n` +
    '- The machine is shared: compare the ratios (Cartage / baseline in the same interleaved rounds), not req/s, ' +
    'and see the load average of each database.\n\n' +
    `${summary}\n\`\`\`\n${done.map(formatDatabase).join('').trim()}\n\`\`\`\n` +
    (extraSections.length ? `\n${extraSections.join('\n')}` : '')
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
  writeFileSync(file, text)
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`)
}
