/**
 * `DATABASE_URL=... npx tsx bench/phases.ts`: where one request's time goes, Cartage against the
 * baseline, with no queueing (one request at a time). Both servers record when each statement is
 * sent and answered (bench/sql-timing.ts, same monotonic clock as this process); each request is
 * split into: before its first statement, in the database (any statement outstanding), between
 * statements, and after the last one until the client has the response. Medians per phase.
 * PostgreSQL only. BENCH_ONLY selects scenarios; PHASE_REQUESTS (2000) per side and scenario.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startServer } from './children.js'
import type { Target } from './load.js'
import { selectedScenarios } from './scenarios.js'
import { seed } from './seed.js'
import { readTimes, type TimedStatement } from './sql-timing.js'
import { targets } from './targets.js'

if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (PostgreSQL)')
const REQUESTS = Number(process.env.PHASE_REQUESTS ?? 2000)
const dir = mkdtempSync(path.join(os.tmpdir(), 'cartage-phases-'))
const files = { cartage: path.join(dir, 'cartage.json'), baseline: path.join(dir, 'baseline.json') }
const env = { RATE_LIMIT_PER_IP: '1000000', ...process.env, LOG_LEVEL: 'silent' }
const now = () => Number(process.hrtime.bigint())

type Window = [number, number]
const windows: Record<string, { cartage: Window[]; baseline: Window[] }> = {}

async function sequential(target: Target, count: number): Promise<Window[]> {
  const out: Window[] = []
  for (let i = 0; i < count; i++) {
    const sentAt = now()
    const response = await fetch(target.url, {
      method: target.method,
      headers: target.headers,
      body: target.body ?? null,
    })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${target.url}: ${response.status}`)
    out.push([sentAt, now()])
  }
  return out
}

const cartage = await startServer('cartage-server.ts', { ...env, BENCH_TIME_SQL: files.cartage })
const seedData = await seed(
  `http://127.0.0.1:${cartage.ports.global}`,
  `http://127.0.0.1:${cartage.ports.core}`,
)
const baseline = await startServer('baseline-server.ts', {
  ...env,
  BENCH_SEED: JSON.stringify(seedData),
  BENCH_TIME_SQL: files.baseline,
})
try {
  for (const scenario of selectedScenarios()) {
    const t = targets(scenario, seedData, cartage.ports, baseline.ports.baseline ?? 0)
    await sequential(t.cartage, REQUESTS / 4)
    await sequential(t.baseline, REQUESTS / 4)
    windows[scenario.name] = {
      cartage: await sequential(t.cartage, REQUESTS),
      baseline: await sequential(t.baseline, REQUESTS),
    }
  }
} finally {
  await Promise.all([cartage.stop(), baseline.stop()])
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

/** Splits each request window by the statements sent within it (µs, medians). */
function phases(requests: Window[], statements: TimedStatement[]) {
  const parts = {
    before: [] as number[],
    database: [] as number[],
    between: [] as number[],
    after: [] as number[],
  }
  const total: number[] = []
  let at = 0
  for (const [start, end] of requests) {
    while (at < statements.length && (statements[at]?.sentAt ?? 0) < start) at++
    const mine: TimedStatement[] = []
    for (let i = at; i < statements.length && (statements[i]?.sentAt ?? 0) <= end; i++)
      mine.push(statements[i]!)
    if (mine.length === 0) continue
    let busyUntil = mine[0]!.sentAt
    let database = 0
    let between = 0
    for (const s of mine) {
      if (s.sentAt > busyUntil) between += s.sentAt - busyUntil
      database += Math.max(0, s.doneAt - Math.max(s.sentAt, busyUntil))
      busyUntil = Math.max(busyUntil, s.doneAt)
    }
    parts.before.push(mine[0]!.sentAt - start)
    parts.database.push(database)
    parts.between.push(between)
    parts.after.push(end - busyUntil)
    total.push(end - start)
  }
  const us = (values: number[]) => median(values) / 1000
  return {
    before: us(parts.before),
    database: us(parts.database),
    between: us(parts.between),
    after: us(parts.after),
    total: us(total),
  }
}

const times = { cartage: readTimes(files.cartage), baseline: readTimes(files.baseline) }
rmSync(dir, { recursive: true, force: true })
const cell = (value: number) => value.toFixed(0).padStart(9)
process.stdout.write(`one request at a time, ${REQUESTS} per side; medians in µs\n`)
process.stdout.write(
  `${'scenario'.padEnd(24)}${'server'.padEnd(10)}   before database  between    after    total\n`,
)
for (const [name, w] of Object.entries(windows)) {
  for (const side of ['cartage', 'baseline'] as const) {
    const p = phases(w[side], times[side])
    process.stdout.write(
      `${(side === 'cartage' ? name : '').padEnd(24)}${side.padEnd(10)}${cell(p.before)}${cell(p.database)}` +
        `${cell(p.between)}${cell(p.after)}${cell(p.total)}\n`,
    )
  }
}
