/**
 * Stock ledger writes at volume, through the real HTTP stack (in-process inject, bearer token) on
 * a fresh organisation, on PostgreSQL (DATABASE_URL) and on the embedded database beside it:
 *
 * 1. Bulk load: 100,000 movements of one product (receipts of 2 at 10.00-10.06 and issues of 1,
 *    a minute apart) through POST /api/v1/products/stock-movements/bulk, 1,000 rows a request,
 *    oldest first. Goal: under 10 s.
 * 2. Single appends (context): 200 receipts and issues posted one at a time at the end.
 * 3. Back-dated write: a receipt dated before all 100,000 entries, which re-values every one of
 *    them, posted BENCH_STOCK_SAMPLES times (default 15, after 2 unmeasured) one after another,
 *    while a reader reads the same product's stock every 5 ms. Reported: the write's p50 and p95,
 *    and the latency of the reads that overlapped a write against those that did not.
 *    Goal: write p50 under 300 ms on PostgreSQL.
 *
 * The machine may be shared: beside each wall time the CPU time it took is reported (this
 * process's, which includes the embedded database; PostgreSQL's processes for the bench database,
 * read from /proc when the server runs on this machine), with the load average.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/scenarios-stock-writes.ts   # both databases
 *   BENCH_DATABASES=embedded npx tsx bench/scenarios-stock-writes.ts      # one of them
 *
 * Run on its own it replaces its section of bench/RESULTS.md; a full `npm run bench` includes it.
 * BENCH_STOCK_ENTRIES (default 100000) sets the volume.
 */

import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { Database } from '../src/db/database.js'
import { MAX_BULK_MOVEMENTS } from '../src/modules/manufacturing/stock/stock.schemas.js'
import { benchCartage } from './bench-cartage.js'

const ENTRIES = Number(process.env.BENCH_STOCK_ENTRIES ?? 100_000)
const SAMPLES = Number(process.env.BENCH_STOCK_SAMPLES ?? 15)
const WARMUP = 2
const APPENDS = 200
export const BULK_GOAL_S = 10
export const BACKDATED_GOAL_MS = 300

export interface StockWriteFigures {
  database: 'postgres' | 'embedded'
  entries: number
  bulkSeconds: number
  /** CPU seconds of the whole bulk load: this process (server and, embedded, the database) and PostgreSQL's */
  bulkCpu: { process: number; database: number | undefined }
  appendsPerSecond: number
  write: { p50: number; p95: number }
  /** median CPU ms per back-dated write: PostgreSQL's processes, or this process for the embedded database */
  writeCpuMs: number | undefined
  readsDuringWrites: { count: number; p50: number; max: number }
  readsBetweenWrites: { count: number; p50: number }
  loadAverage: string
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/**
 * CPU time (ms) used so far by this database's PostgreSQL processes, when the server runs on this
 * machine and /proc is readable; undefined otherwise. The machine is shared: wall times move with
 * the neighbours' load, CPU time far less.
 */
async function databaseCpuMs(db: Database): Promise<number | undefined> {
  try {
    const { rows } = await sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(db.db)
    let ticks = 0
    for (const { pid } of rows) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // After "pid (command) " the fields start at the third: utime and stime are the 14th and 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    }
    return ticks * 10
  } catch {
    return undefined
  }
}

const processCpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

const minute = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString()

export async function runStockWrites(database: 'postgres' | 'embedded'): Promise<StockWriteFigures> {
  if (database === 'postgres' && !process.env.DATABASE_URL)
    throw new Error('the PostgreSQL run needs DATABASE_URL')
  const cartage = await benchCartage(database, 'stock')
  try {
    const { core, global, database: db } = cartage
    const email = `bench-stock-${Date.now()}@example.com`
    const password = 'correct-horse-battery'
    const registered = await global.inject({
      method: 'POST',
      url: '/api/organizations',
      payload: {
        business: {
          registeredName: `Bench stock ${Date.now()}`,
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
    const login = await global.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    })
    const headers = {
      authorization: `Bearer ${login.json().data.session.accessToken}`,
      'x-business-id': businessId,
    }
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await core.inject({ method, url, headers, ...(payload ? { payload } : {}) })
      if (response.statusCode !== 200)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
      return response.json().data
    }
    const product = await call('POST', '/api/v1/products', {
      sku: 'BENCH-STOCK',
      name: 'Bench stock',
      type: 'RawMaterial',
    })
    const productId = product.id as string

    process.stdout.write(`${database}: bulk load of ${ENTRIES.toLocaleString('en')} movements\n`)
    const cpu = async () => (database === 'postgres' ? await databaseCpuMs(db) : processCpuMs())
    const bulkStarted = performance.now()
    const bulkProcess = processCpuMs()
    const bulkDatabase = database === 'postgres' ? await databaseCpuMs(db) : undefined
    for (let start = 0; start < ENTRIES; start += MAX_BULK_MOVEMENTS) {
      const movements = []
      for (let i = start; i < Math.min(ENTRIES, start + MAX_BULK_MOVEMENTS); i++)
        movements.push(
          i % 2 === 0
            ? {
                productId,
                type: 'Receipt',
                quantity: 2,
                unitCost: 10 + (i % 7) / 100,
                effectiveDate: minute(i + 1),
              }
            : { productId, type: 'Issue', quantity: 1, effectiveDate: minute(i + 1) },
        )
      await call('POST', '/api/v1/products/stock-movements/bulk', { movements })
    }
    const bulkSeconds = (performance.now() - bulkStarted) / 1000
    const bulkDatabaseAfter = database === 'postgres' ? await databaseCpuMs(db) : undefined
    const bulkCpu = {
      process: (processCpuMs() - bulkProcess) / 1000,
      database:
        bulkDatabase === undefined || bulkDatabaseAfter === undefined
          ? undefined
          : (bulkDatabaseAfter - bulkDatabase) / 1000,
    }

    const appendsStarted = performance.now()
    for (let i = 0; i < APPENDS; i++)
      await call(
        'POST',
        `/api/v1/products/${productId}/stock-movements`,
        i % 2 === 0 ? { type: 'Receipt', quantity: 2, unitCost: 10.5 } : { type: 'Issue', quantity: 1 },
      )
    const appendsPerSecond = APPENDS / ((performance.now() - appendsStarted) / 1000)

    process.stdout.write(`${database}: back-dated receipts before ${ENTRIES.toLocaleString('en')} entries\n`)
    let writing = false
    let epoch = 0
    let done = false
    const during: number[] = []
    const between: number[] = []
    // A read every 5 ms: a steady reader of the same product, not a second load generator.
    const reader = (async () => {
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        const seen = epoch
        const busy = writing
        const started = performance.now()
        await call('GET', `/api/v1/products/${productId}/stock`)
        ;(busy || epoch !== seen ? during : between).push(performance.now() - started)
      }
    })()
    const writes: number[] = []
    const writeCpu: number[] = []
    const loadBefore = loadAverage()
    for (let k = 0; k < WARMUP + SAMPLES; k++) {
      await new Promise((resolve) => setTimeout(resolve, 150))
      const cpuBefore = await cpu()
      writing = true
      epoch++
      const started = performance.now()
      await call('POST', `/api/v1/products/${productId}/stock-movements`, {
        type: 'Receipt',
        quantity: 1,
        unitCost: 12,
        effectiveDate: new Date(Date.UTC(2019, 11, 31) + k * 1000).toISOString(),
      })
      const elapsed = performance.now() - started
      writing = false
      epoch++
      const cpuAfter = await cpu()
      if (k >= WARMUP) writes.push(elapsed)
      if (k >= WARMUP && cpuBefore !== undefined && cpuAfter !== undefined)
        writeCpu.push(cpuAfter - cpuBefore)
    }
    done = true
    await reader
    const stock = await call('GET', `/api/v1/products/${productId}/stock`)
    const expected = ENTRIES / 2 + APPENDS / 2 + WARMUP + SAMPLES
    if (stock.onHand !== expected) throw new Error(`on hand ${stock.onHand}, expected ${expected}`)
    return {
      database,
      entries: ENTRIES,
      bulkSeconds,
      bulkCpu,
      appendsPerSecond,
      write: { p50: percentile(writes, 50), p95: percentile(writes, 95) },
      writeCpuMs: writeCpu.length > 0 ? percentile(writeCpu, 50) : undefined,
      readsDuringWrites: { count: during.length, p50: percentile(during, 50), max: Math.max(0, ...during) },
      readsBetweenWrites: { count: between.length, p50: percentile(between, 50) },
      loadAverage: `${loadBefore} before the writes, ${loadAverage()} after`,
    }
  } finally {
    await cartage.close()
  }
}

/** The section for bench/RESULTS.md. */
export function stockWritesMarkdown(results: readonly StockWriteFigures[]): string {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met')
  const seconds = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(1)} s`)
  const rows = results.map((r) => {
    const goal = r.database === 'postgres'
    return (
      `| ${r.database} | ${r.bulkSeconds.toFixed(1)} s${goal ? ` (goal < ${BULK_GOAL_S} s: ${met(r.bulkSeconds < BULK_GOAL_S)})` : ''} ` +
      `| ${seconds(r.bulkCpu.process)} / ${seconds(r.bulkCpu.database)} ` +
      `| ${r.write.p50.toFixed(0)} / ${r.write.p95.toFixed(0)} ms${goal ? ` (goal p50 < ${BACKDATED_GOAL_MS} ms: ${met(r.write.p50 < BACKDATED_GOAL_MS)})` : ''} ` +
      `| ${r.writeCpuMs === undefined ? 'n/a' : `${r.writeCpuMs.toFixed(0)} ms`} ` +
      `| ${r.readsDuringWrites.p50.toFixed(1)} / ${r.readsDuringWrites.max.toFixed(1)} ms (${r.readsDuringWrites.count}) ` +
      `| ${r.readsBetweenWrites.p50.toFixed(1)} ms (${r.readsBetweenWrites.count}) | ${r.appendsPerSecond.toFixed(0)} |`
    )
  })
  const loads = results.map((r) => `${r.database}: ${r.loadAverage}`).join('; ')
  return (
    '## Stock ledger writes: bulk load and back-dated receipts\n\n' +
    `One product, ${results[0]?.entries.toLocaleString('en') ?? '?'} movements loaded through POST /api/v1/products/stock-movements/bulk ` +
    `(${MAX_BULK_MOVEMENTS} rows a request, oldest first); then a receipt dated before all of them, which re-values every ` +
    `later entry, posted ${SAMPLES} times one after another while a reader reads the same product's stock every 5 ms ` +
    '(bench/scenarios-stock-writes.ts, in-process through the HTTP stack). Goals on PostgreSQL; the embedded ' +
    'database (one connection: a read waits for the write in progress) beside it. Wall times move with the ' +
    "machine's load; CPU times (this process; PostgreSQL's processes for this database, from /proc) much less. " +
    `Load average: ${loads}.\n\n` +
    '| database | bulk load | bulk CPU: process / PostgreSQL | back-dated write p50 / p95 | its CPU (median) | read during a write p50 / max (reads) | read between writes p50 (reads) | single appends / s |\n' +
    `|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`
  )
}

/** Replaces (or appends) this scenario's section of bench/RESULTS.md, leaving the rest alone. */
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

/** The databases to run on: BENCH_DATABASES, else PostgreSQL when DATABASE_URL is set, and the embedded one. */
export function stockWriteDatabases(): ('postgres' | 'embedded')[] {
  const wanted = (process.env.BENCH_DATABASES ?? 'postgres,embedded').split(',').map((d) => d.trim())
  return (['postgres', 'embedded'] as const).filter(
    (d) => wanted.includes(d) && (d === 'embedded' || Boolean(process.env.DATABASE_URL)),
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results: StockWriteFigures[] = []
  for (const database of stockWriteDatabases()) {
    const figures = await runStockWrites(database)
    process.stdout.write(`${JSON.stringify(figures)}\n`)
    results.push(figures)
  }
  const section = stockWritesMarkdown(results)
  process.stdout.write(`\n${section}`)
  replaceSection(section)
  process.stdout.write('replaced the stock-writes section of bench/RESULTS.md\n')
}
