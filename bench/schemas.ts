/**
 * Part of `npm run bench -- --scale` (PostgreSQL only): the customer read with 1,000 organisation
 * schemas present against one. Two Cartage servers run on two new databases beside DATABASE_URL's:
 * one holds a single organisation, the other that organisation's twin and 999 more, registered
 * through the real API with one customer each. In interleaved rounds the same read of one
 * organisation is timed on both; goal: with 1,000 present at least 0.85x of with one. Reads spread
 * round-robin over all 1,000 (each request another organisation: another schema, its own compiled
 * and prepared statements, its own credential) are reported beside them: a different workload,
 * where every request's statements are new to its connection.
 */
import { createScratchDatabase } from '../test/scratch-database.js'
import { type ServerProcess, startServer } from './children.js'
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

/** Runs the scenario; returns the RESULTS.md section (also printed). */
export async function benchSchemas(env: NodeJS.ProcessEnv): Promise<string> {
  if (!env.DATABASE_URL)
    return '## Organisation schemas\n\nskipped: DATABASE_URL is not set (PostgreSQL only)\n'
  const running: ServerProcess[] = []
  const databases: { drop(): Promise<void> }[] = []
  try {
    const single = await createScratchDatabase(env.DATABASE_URL, 'one')
    databases.push(single)
    const many = await createScratchDatabase(env.DATABASE_URL, 'many')
    databases.push(many)
    const server = async (url: string) => {
      const started = await startServer('cartage-server.ts', { ...env, DATABASE_URL: url })
      running.push(started)
      return {
        core: `http://127.0.0.1:${started.ports.core}`,
        global: `http://127.0.0.1:${started.ports.global}`,
      }
    }
    const [a, b] = [await server(single.url), await server(many.url)]
    const alone = await seed(a.global, a.core, 1)
    const twin = await seed(b.global, b.core, 1)
    process.stdout.write(`\nschemas: registering ${ORGANISATIONS - 1} more organisations\n`)
    const started = performance.now()
    const others = await inParallel(ORGANISATIONS - 1, 4, () => seed(b.global, b.core, 1))
    const seconds = (performance.now() - started) / 1000
    const all = [twin, ...others]
    const one = () => read(a.core, alone)
    const present = () => read(b.core, twin)
    let turn = 0
    const spread = () => read(b.core, all[turn++ % all.length] as Seed)
    for (const warm of [one, present, spread]) await throughput(warm)
    const rounds: { one: number; present: number; spread: number }[] = []
    for (let r = 0; r < ROUNDS; r++)
      rounds.push({
        one: await throughput(one),
        present: await throughput(present),
        spread: await throughput(spread),
      })
    const med = (pick: (x: (typeof rounds)[number]) => number) => median(rounds.map(pick))
    const [o, p, s] = [med((x) => x.one), med((x) => x.present), med((x) => x.spread)]
    const ratio = p / o
    const line = (label: string, rps: number) => `${label.padEnd(52)}${rps.toFixed(0).padStart(7)} req/s\n`
    const table =
      `GET /api/v1/Customers/{id} (bearer), ${CONNECTIONS} in flight, ${SECONDS} s x ${ROUNDS} interleaved rounds\n` +
      line('one organisation, the only one in its database', o) +
      line(`one organisation, ${ORGANISATIONS} in its database`, p) +
      `ratio ${ORGANISATIONS} present / one: ${ratio.toFixed(3)}x (goal >= ${SCHEMAS_GOAL}x: ${ratio >= SCHEMAS_GOAL ? 'met' : 'NOT met'})\n` +
      line(`round-robin over the ${ORGANISATIONS} organisations`, s) +
      `(round-robin / one: ${(s / o).toFixed(3)}x; every request's statements are new to its connection)\n` +
      `(registering ${ORGANISATIONS - 1} organisations through the API took ${seconds.toFixed(0)} s)\n`
    process.stdout.write(`\n== organisation schemas (postgres) ==\n${table}`)
    return `## Organisation schemas (PostgreSQL): one organisation vs ${ORGANISATIONS}\n\n\`\`\`\n${table}\`\`\`\n`
  } finally {
    await Promise.all(running.map((server) => server.stop()))
    for (const database of databases) await database.drop().catch(() => {})
  }
}
