/**
 * Part of `npm run bench -- --scale` (PostgreSQL only): the customer read with 1,000 organisation
 * schemas present against one. Two Cartage servers run on two new databases beside DATABASE_URL's:
 * one holds a single organisation, the other that organisation's twin and 999 more, registered
 * through the real API with one customer each. In interleaved rounds the same read of one
 * organisation is timed on both; goal: with 1,000 present at least 0.85x of with one. Reads spread
 * round-robin over all 1,000 (each request another organisation: another schema, its own compiled
 * and prepared statements, its own credential) are reported beside them: a different workload,
 * where every request's statements are new to its connection.
 *
 * To weigh settings for the round-robin reads, `BENCH_SCHEMAS_VARIANTS="label:NAME=value NAME=value;..."`
 * starts one more server per variant on the same 1,000 organisations, each measured round-robin in
 * the same interleaved rounds. `BENCH_SCHEMAS_KEEP=<file>` keeps both databases and writes their
 * seeds there; a later run given the same file reuses them instead of registering again (drop them
 * afterwards: `BENCH_SCHEMAS_KEEP=<file> npx tsx bench/schemas.ts --drop`). Run on its own,
 * `DATABASE_URL=... npx tsx bench/schemas.ts` prints the section and leaves RESULTS.md alone.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import pg from 'pg'
import { createScratchDatabase } from '../test/scratch-database.js'
import { benchServerEnv, type ServerProcess, startServer } from './children.js'
import { median } from './load.js'
import type { Seed } from './scenario-types.js'
import { seed } from './seed.js'

const ORGANISATIONS = Number(process.env.BENCH_SCHEMAS ?? 1_000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
export const SCHEMAS_GOAL = 0.85

const read = (core: string, s: Seed) => ({
  url: `${core}/api/v1/Customers/${s.customerId}`,
  headers: { authorization: `Bearer ${s.accessToken}`, 'x-business-id': s.businessId },
})

/** Requests per second over SECONDS with CONNECTIONS requests in flight; `next` picks each request. */
async function throughput(next: () => { url: string; headers: Record<string, string> }): Promise<number> {
  const until = performance.now() + SECONDS * 1000
  let done = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const { url, headers } = next()
        const response = await fetch(url, { headers })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`schemas: ${url} answered ${response.status}`)
        done++
      }
    }),
  )
  return done / SECONDS
}

async function inParallel<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++
        out[i] = await make(i)
      }
    }),
  )
  return out
}

/** `label:NAME=value NAME=value;...`: the settings of each extra server of the round-robin reads. */
function variants(raw: string | undefined): { label: string; env: Record<string, string> }[] {
  return (raw ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf(':')
      const label = at > 0 ? part.slice(0, at) : part
      const env = Object.fromEntries(
        part
          .slice(at + 1)
          .trim()
          .split(/\s+/)
          .filter((pair) => pair.includes('='))
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      )
      return { label, env }
    })
}

interface Kept {
  single: string
  many: string
  alone: Seed
  all: Seed[]
  seconds: number
}

async function dropDatabase(adminUrl: string, url: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(
      `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(new URL(url).pathname.slice(1))} WITH (FORCE)`,
    )
  } finally {
    await client.end()
  }
}

/**
 * The private memory of a server's PostgreSQL backends (its pool's connections, by application
 * name), from /proc when the server runs on this host and may be read; else says why not.
 */
async function backendMemoryMb(url: string, applicationName: string): Promise<string> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    )
    let kb = 0
    for (const { pid } of rows) {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      kb += Number(/^Private_Dirty:\s+(\d+)/m.exec(rollup)?.[1] ?? 0)
    }
    return `${rows.length} connections, ${(kb / 1024).toFixed(0)} MB private`
  } catch {
    return 'memory not readable here'
  } finally {
    await client.end()
  }
}

/** Runs the scenario; returns the RESULTS.md section (also printed). */
export async function benchSchemas(env: NodeJS.ProcessEnv): Promise<string> {
  if (!env.DATABASE_URL)
    return '## Organisation schemas\n\nskipped: DATABASE_URL is not set (PostgreSQL only)\n'
  const running: ServerProcess[] = []
  const databases: { drop(): Promise<void> }[] = []
  const keepFile = env.BENCH_SCHEMAS_KEEP
  const kept =
    keepFile && existsSync(keepFile) ? (JSON.parse(readFileSync(keepFile, 'utf8')) as Kept) : undefined
  try {
    const single = kept ? { url: kept.single } : await createScratchDatabase(env.DATABASE_URL, 'one')
    const many = kept ? { url: kept.many } : await createScratchDatabase(env.DATABASE_URL, 'many')
    if (!keepFile) databases.push(single as { drop(): Promise<void> }, many as { drop(): Promise<void> })
    const server = async (url: string, extra: Record<string, string> = {}) => {
      const started = await startServer('cartage-server.ts', { ...env, ...extra, DATABASE_URL: url })
      running.push(started)
      return {
        core: `http://127.0.0.1:${started.ports.core}`,
        global: `http://127.0.0.1:${started.ports.global}`,
      }
    }
    const [a, b] = [
      await server(single.url),
      await server(many.url, { BENCH_APPLICATION_NAME: 'cartage-bench-many' }),
    ]
    let alone: Seed
    let all: Seed[]
    let seconds: number
    if (kept) ({ alone, all, seconds } = kept)
    else {
      alone = await seed(a.global, a.core, 1)
      const twin = await seed(b.global, b.core, 1)
      process.stdout.write(`\nschemas: registering ${ORGANISATIONS - 1} more organisations\n`)
      const started = performance.now()
      const others = await inParallel(ORGANISATIONS - 1, 4, () => seed(b.global, b.core, 1))
      seconds = (performance.now() - started) / 1000
      all = [twin, ...others]
      if (keepFile)
        writeFileSync(keepFile, JSON.stringify({ single: single.url, many: many.url, alone, all, seconds }))
    }
    const twin = all[0] as Seed
    const extras = variants(env.BENCH_SCHEMAS_VARIANTS)
    const extraServers = []
    for (const [i, variant] of extras.entries())
      extraServers.push(
        await server(many.url, { BENCH_APPLICATION_NAME: `cartage-bench-v${i}`, ...variant.env }),
      )
    const one = () => read(a.core, alone)
    const present = () => read(b.core, twin)
    const roundRobin = (core: string) => {
      let turn = 0
      return () => read(core, all[turn++ % all.length] as Seed)
    }
    const spread = roundRobin(b.core)
    const spreadVariants = extraServers.map((s) => roundRobin(s.core))
    for (const warm of [one, present, spread, ...spreadVariants]) await throughput(warm)
    const rounds: { one: number; present: number; spread: number; variants: number[] }[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const round = {
        one: await throughput(one),
        present: await throughput(present),
        spread: await throughput(spread),
        variants: [] as number[],
      }
      for (const v of spreadVariants) round.variants.push(await throughput(v))
      rounds.push(round)
      process.stdout.write(
        `schemas round ${r + 1}: one ${round.one.toFixed(0)}, present ${round.present.toFixed(0)}, round-robin ${round.spread.toFixed(0)}${round.variants.map((v, i) => `, ${extras[i]?.label} ${v.toFixed(0)}`).join('')} req/s\n`,
      )
    }
    const backendMb = [
      await backendMemoryMb(many.url, 'cartage-bench-many'),
      ...(await Promise.all(extras.map((_, i) => backendMemoryMb(many.url, `cartage-bench-v${i}`)))),
    ]
    const med = (pick: (x: (typeof rounds)[number]) => number) => median(rounds.map(pick))
    const [o, p, s] = [med((x) => x.one), med((x) => x.present), med((x) => x.spread)]
    const ratio = p / o
    const line = (label: string, rps: number) => `${label.padEnd(52)}${rps.toFixed(0).padStart(7)} req/s\n`
    const variantLines = extras
      .map((variant, i) => {
        const v = med((x) => x.variants[i] ?? 0)
        const perRound = median(rounds.map((x) => (x.variants[i] ?? 0) / x.one))
        return (
          line(`round-robin, ${variant.label}`, v) +
          `  (backends ${backendMb[i + 1]}; / one: ${(v / o).toFixed(3)}x, median of per-round ratios ${perRound.toFixed(3)}x; ${Object.entries(
            variant.env,
          )
            .map(([k, val]) => `${k}=${val}`)
            .join(' ')})\n`
        )
      })
      .join('')
    const table =
      `GET /api/v1/Customers/{id} (bearer), ${CONNECTIONS} in flight, ${SECONDS} s x ${ROUNDS} interleaved rounds\n` +
      line('one organisation, the only one in its database', o) +
      line(`one organisation, ${ORGANISATIONS} in its database`, p) +
      `ratio ${ORGANISATIONS} present / one: ${ratio.toFixed(3)}x (goal >= ${SCHEMAS_GOAL}x: ${ratio >= SCHEMAS_GOAL ? 'met' : 'NOT met'})\n` +
      line(`round-robin over the ${ORGANISATIONS} organisations`, s) +
      `  (backends ${backendMb[0]})\n` +
      `(round-robin / one: ${(s / o).toFixed(3)}x, median of per-round ratios ${median(rounds.map((x) => x.spread / x.one)).toFixed(3)}x)\n` +
      variantLines +
      `(registering ${ORGANISATIONS - 1} organisations through the API took ${seconds.toFixed(0)} s)\n`
    process.stdout.write(`\n== organisation schemas (postgres) ==\n${table}`)
    return `## Organisation schemas (PostgreSQL): one organisation vs ${ORGANISATIONS}\n\n\`\`\`\n${table}\`\`\`\n`
  } finally {
    await Promise.all(running.map((server) => server.stop()))
    for (const database of databases) await database.drop().catch(() => {})
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env: NodeJS.ProcessEnv = { RATE_LIMIT_PER_ACCOUNT: '1000000', ...benchServerEnv() }
  const keepFile = env.BENCH_SCHEMAS_KEEP
  if (process.argv.includes('--drop')) {
    if (!env.DATABASE_URL || !keepFile || !existsSync(keepFile))
      throw new Error('--drop needs DATABASE_URL and BENCH_SCHEMAS_KEEP naming a kept run')
    const kept = JSON.parse(readFileSync(keepFile, 'utf8')) as Kept
    for (const url of [kept.single, kept.many]) await dropDatabase(env.DATABASE_URL, url)
    rmSync(keepFile)
  } else await benchSchemas(env)
}
