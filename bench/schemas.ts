/**
 * Part of `npm run bench -- --scale` (PostgreSQL only): the customer read with 1,000 organisation
 * schemas present against one. Reads are timed before the other organisations exist (one
 * organisation), then, in interleaved rounds, the same read of one organisation against reads
 * spread round-robin over all 1,000 (each request another organisation: another schema, its own
 * compiled and prepared statements, its own credential). Goal: the 1,000-organisation reads at
 * least 0.85x the one-organisation reads. The other organisations are registered through the
 * real API, with one customer each.
 */
import { type ServerProcess, startServer } from './children.js'
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

/** Runs the scenario; returns the RESULTS.md section (also printed). */
export async function benchSchemas(env: NodeJS.ProcessEnv): Promise<string> {
  if (!env.DATABASE_URL)
    return '## Organisation schemas\n\nskipped: DATABASE_URL is not set (PostgreSQL only)\n'
  const running: ServerProcess[] = []
  try {
    const cartage = await startServer('cartage-server.ts', env)
    running.push(cartage)
    const core = `http://127.0.0.1:${cartage.ports.core}`
    const global = `http://127.0.0.1:${cartage.ports.global}`
    const first = await seed(global, core, 1)
    const one = () => read(core, first)
    await throughput(one)
    const alone = await throughput(one)
    process.stdout.write(
      `\nschemas: one organisation ${alone.toFixed(0)} req/s; registering ${ORGANISATIONS - 1} more\n`,
    )
    const started = performance.now()
    const others = await inParallel(ORGANISATIONS - 1, 4, () => seed(global, core, 1))
    const seconds = (performance.now() - started) / 1000
    const all = [first, ...others]
    let turn = 0
    const spread = () => read(core, all[turn++ % all.length] as Seed)
    await throughput(spread)
    const rounds: { one: number; spread: number }[] = []
    for (let r = 0; r < ROUNDS; r++)
      rounds.push({ one: await throughput(one), spread: await throughput(spread) })
    const [o, s] = [median(rounds.map((x) => x.one)), median(rounds.map((x) => x.spread))]
    const ratio = s / o
    const line = (label: string, rps: number) => `${label.padEnd(48)}${rps.toFixed(0).padStart(7)} req/s\n`
    const table =
      `GET /api/v1/Customers/{id} (bearer), ${CONNECTIONS} in flight, ${SECONDS} s x ${ROUNDS} interleaved rounds\n` +
      line('one organisation, before the others existed', alone) +
      line(`one organisation, ${ORGANISATIONS} schemas present`, o) +
      line(`round-robin over ${ORGANISATIONS} organisations`, s) +
      `ratio round-robin / one: ${ratio.toFixed(3)}x (goal >= ${SCHEMAS_GOAL}x: ${ratio >= SCHEMAS_GOAL ? 'met' : 'NOT met'})\n` +
      `(registering ${ORGANISATIONS - 1} organisations through the API took ${seconds.toFixed(0)} s)\n`
    process.stdout.write(`\n== organisation schemas (postgres) ==\n${table}`)
    return `## Organisation schemas (PostgreSQL): one organisation vs ${ORGANISATIONS}\n\n\`\`\`\n${table}\`\`\`\n`
  } finally {
    await Promise.all(running.map((server) => server.stop()))
  }
}
