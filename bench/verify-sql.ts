/**
 * `npx tsx bench/verify-sql.ts`: proves the baseline runs what Cartage runs. Starts Cartage with
 * every statement traced (bench/sql-trace.ts), seeds, sends each scenario's request twice in a row
 * (the first warms the authenticator's caches) and compares the second request's statements with
 * the scenario's baseline: SQL text exactly, parameters exactly except fresh ids, times and codes.
 * Prints what Cartage sent on a mismatch, ready to copy. Needs DATABASE_URL (the SQL is the same
 * on the embedded database: same Kysely dialect and driver). BENCH_ONLY=a,b limits the scenarios.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startServer } from './children.js'
import { compareStatements } from './compare-sql.js'
import { resolveSeed } from './resolve-seed.js'
import { type Scenario, selectedScenarios } from './scenarios.js'
import { seed } from './seed.js'
import { readTrace } from './sql-trace.js'
import { targets } from './targets.js'

if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (PostgreSQL) to verify the statements')
const dir = mkdtempSync(path.join(os.tmpdir(), 'cartage-sql-'))
const traceFile = path.join(dir, 'trace.jsonl')
const env = { RATE_LIMIT_PER_IP: '1000000', ...process.env, LOG_LEVEL: 'silent', BENCH_TRACE_SQL: traceFile }
const cartage = await startServer('cartage-server.ts', env)
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 })
let failures = 0
try {
  const base = (api: string) => `http://127.0.0.1:${cartage.ports[api]}`
  const seedData = await seed(base('global'), base('core'))
  const resolved = await resolveSeed(pool, seedData)
  const send = async (scenario: Scenario) => {
    const { cartage: target } = targets(scenario, seedData, cartage.ports, 0)
    const response = await fetch(target.url, {
      method: target.method,
      headers: target.headers,
      body: target.body ?? null,
    })
    if (response.status !== 200)
      throw new Error(`${scenario.name}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  for (const scenario of selectedScenarios()) {
    await send(scenario)
    const before = readTrace(traceFile).length
    await send(scenario)
    // Background writes (an API key's lastUsedAt) finish after the response; give them a moment.
    await new Promise((resolve) => setTimeout(resolve, 100))
    const captured = readTrace(traceFile, before)
    const problems = compareStatements(scenario, resolved, captured)
    process.stdout.write(`${scenario.name}: ${problems.length === 0 ? 'same statements' : 'DIFFERENT'}\n`)
    if (problems.length > 0) {
      failures++
      for (const problem of problems) process.stdout.write(`  ${problem}\n`)
      process.stdout.write(`  Cartage sent:\n${captured.map((s) => `    ${JSON.stringify(s)}`).join('\n')}\n`)
    }
  }
} finally {
  await pool.end()
  await cartage.stop()
  rmSync(dir, { recursive: true, force: true })
}
process.exitCode = failures > 0 ? 1 : 0
