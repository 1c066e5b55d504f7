/**
 * CPU time per request of two checkouts of Cartage, side by side: which of two versions of the
 * code costs less per request, steadier than req/s on a shared machine (the server's own CPU time
 * from /proc, not the wall clock). Each checkout's bench server (bench/cartage-server.ts) runs on
 * the same PostgreSQL database; one organisation is seeded through the second; then, round by
 * round in alternating order, each scenario is warmed up and `amount` requests are sent over 10
 * connections while the server's CPU time is read before and after.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/cpu-per-request.ts <checkout A> <checkout B> [rounds=8] [amount=15000]
 *
 * BENCH_ONLY=health-ready,business-bearer picks scenarios (also soft-check, customer-bearer).
 * Prints the median µs per request of each, and the median of the per-round ratios A/B (above 1:
 * B costs less).
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { benchServerEnv } from './children.js'
import { cpuTicks } from './proc.js'
import { seed } from './seed.js'

const [dirA, dirB] = process.argv.slice(2, 4)
if (!dirA || !dirB || !process.env.DATABASE_URL)
  throw new Error(
    'usage: DATABASE_URL=... tsx bench/cpu-per-request.ts <checkout A> <checkout B> [rounds] [amount]',
  )
const rounds = Number(process.argv[4] ?? 8)
const amount = Number(process.argv[5] ?? 15_000)
const env = benchServerEnv()

async function start(dir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/cartage-server.ts'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  if (!child.stdout) throw new Error('no stdout')
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve),
  )
  return { child, ports: JSON.parse(line) as { core: number; global: number } }
}

/** `n` requests over 10 connections; resolves with autocannon's result. */
const load = async (url: string, headers: Record<string, string>, n: number) =>
  await autocannon({ url, headers, connections: 10, amount: n })

const servers = { A: await start(dirA), B: await start(dirB) }
try {
  const s = await seed(
    `http://127.0.0.1:${servers.B.ports.global}`,
    `http://127.0.0.1:${servers.B.ports.core}`,
    2,
  )
  const bearer = { authorization: `Bearer ${s.accessToken}`, 'x-business-id': s.businessId }
  const scenarios = [
    { name: 'health-ready', api: 'core' as const, path: '/health/ready', headers: {} },
    {
      name: 'soft-check',
      api: 'global' as const,
      path: `/api/organizations/soft-check?emailAddress=${encodeURIComponent(s.email)}`,
      headers: {},
    },
    { name: 'business-bearer', api: 'core' as const, path: '/api/business/my-business', headers: bearer },
    {
      name: 'customer-bearer',
      api: 'core' as const,
      path: `/api/v1/Customers/${s.customerId}`,
      headers: bearer,
    },
  ].filter((scenario) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(scenario.name))
  const perRequest: Record<string, { A: number[]; B: number[] }> = {}
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)
    for (const scenario of scenarios) {
      for (const which of order) {
        const server = servers[which]
        const url = `http://127.0.0.1:${server.ports[scenario.api]}${scenario.path}`
        await load(url, scenario.headers, 1_500)
        const before = cpuTicks(server.child.pid ?? 0)
        const result = await load(url, scenario.headers, amount)
        if (result.non2xx || result.errors)
          throw new Error(`${which} ${scenario.name}: ${result.non2xx} non-2xx`)
        perRequest[scenario.name] ??= { A: [], B: [] }
        perRequest[scenario.name]?.[which].push(
          ((cpuTicks(server.child.pid ?? 0) - before) * 10_000) / result.requests.total,
        )
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  for (const [name, { A, B }] of Object.entries(perRequest)) {
    const ratios = A.map((a, i) => a / (B[i] ?? a))
    process.stdout.write(
      `${name.padEnd(16)} A ${median(A).toFixed(0)} µs/request, B ${median(B).toFixed(0)}; A/B ${median(ratios).toFixed(3)} ` +
        `(per round ${ratios.map((r) => r.toFixed(2)).join(' ')})\n`,
    )
  }
} finally {
  servers.A.child.kill('SIGTERM')
  servers.B.child.kill('SIGTERM')
}
