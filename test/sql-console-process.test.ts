import { readFileSync, rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { PASSWORD, registrationBody, uniqueEmail } from './harness.js'
import {
  migratedDataDir,
  PROCESS_TEST_TIMEOUT_MS,
  type ServerProcess,
  startServerProcess,
} from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

// The SQL console's bounds measured on a real server: another organisation's reads while console
// attacks run, and the process's memory while the console reads a gigabyte of values.
const dataDir = migratedDataDir('cartage-sql-console-')
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const postgres = testDatabaseUrl() !== undefined

const SLOW_REGEX = "SELECT count(*) FROM generate_series(1, 100000) a WHERE repeat(a::text, 20000) ~ 'x*y'"
const CROSS_JOIN =
  'SELECT 1 FROM generate_series(1, 100000) a, generate_series(1, 100000) b WHERE a.a + b.b < 0'
const GIGABYTE = "SELECT repeat('x', 1000000) FROM generate_series(1, 1000)"

interface Caller {
  headers: Record<string, string>
}

async function newOrganisation(server: ServerProcess): Promise<Caller> {
  const email = uniqueEmail('console')
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const registered = await post(`${server.global}/api/organizations`, registrationBody({ email }))
  expect(registered.status).toBe(200)
  const businessId = ((await registered.json()) as { data: { id: string } }).data.id
  const login = await post(`${server.global}/api/auth/login`, { email, password: PASSWORD })
  const token = ((await login.json()) as { data: { session: { accessToken: string } } }).data.session
    .accessToken
  return { headers: { authorization: `Bearer ${token}`, 'x-business-id': businessId } }
}

const consoleQuery = (server: ServerProcess, caller: Caller, query: string) =>
  fetch(`${server.core}/api/ai-studio/query`, {
    method: 'POST',
    headers: { ...caller.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))

/** Another organisation reads its vehicles over and over until `until` settles: each read's status and time. */
async function readWhile(server: ServerProcess, caller: Caller, until: Promise<unknown>) {
  let done = false
  void until.finally(() => {
    done = true
  })
  const reads: { status: number; ms: number }[] = []
  while (!done) {
    const started = performance.now()
    const response = await fetch(`${server.core}/api/v1/vehicles`, { headers: caller.headers })
    await response.arrayBuffer()
    reads.push({ status: response.status, ms: performance.now() - started })
  }
  return reads
}

const rssBytes = (pid: number) => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(line?.[1] ?? 0) * 1024
}

/** The highest resident size of `pid` while `work` runs, sampled every 5 ms. */
async function peakRss<T>(pid: number, work: Promise<T>): Promise<{ peak: number; result: T }> {
  let peak = rssBytes(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid))
  }, 5)
  try {
    const result = await work
    return { peak: Math.max(peak, rssBytes(pid)), result }
  } finally {
    clearInterval(timer)
  }
}

const summary = (reads: { ms: number }[]) => {
  const times = reads.map((r) => r.ms).sort((a, b) => a - b)
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0)
  return `${reads.length} reads, median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`
}

describe('SQL console on a real server', () => {
  it(
    "serves another organisation while console attacks run, and a gigabyte of values does not enter the process's memory",
    async () => {
      const server = await startServerProcess({
        ...(process.env as Record<string, string>),
        ...(postgres ? { DATABASE_URL: testDatabaseUrl() as string } : {}),
        CARTAGE_DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        CORE_PORT: '0',
        GLOBAL_PORT: '0',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_IP: '100000',
      })
      try {
        const pid = server.child.pid as number
        const attackers = await Promise.all(
          Array.from({ length: postgres ? 6 : 1 }, () => newOrganisation(server)),
        )
        const other = await newOrganisation(server)
        // Warm: the console's first query and a first read load what every later one reuses.
        expect((await consoleQuery(server, attackers[0] as Caller, 'SELECT 1')).status).toBe(200)
        await readWhile(server, other, Promise.resolve())

        // Before the attacks: on the embedded database a stop restarts the database's thread, and a
        // query right after it shares the CPU with the standby thread being made ready.
        const before = rssBytes(pid)
        const { peak, result } = await peakRss(pid, consoleQuery(server, attackers[0] as Caller, GIGABYTE))
        process.stdout.write(
          `sql console (${postgres ? 'postgres' : 'embedded'}): ${GIGABYTE}: RSS ${Math.round(before / 1e6)} MB before, ` +
            `peak ${Math.round(peak / 1e6)} MB (+${Math.round((peak - before) / 1e6)} MB)\n`,
        )
        expect(result.status, JSON.stringify(result.body)).toBe(200)
        expect((result.body.data as { truncated: boolean }).truncated).toBe(true)
        expect(peak - before).toBeLessThan(100_000_000)

        // Embedded: the two attacks one after another; PostgreSQL: twelve at once from six organisations.
        const attack = postgres
          ? Promise.all(
              attackers.flatMap((a) => [
                consoleQuery(server, a, SLOW_REGEX),
                consoleQuery(server, a, SLOW_REGEX),
              ]),
            )
          : (async () => [
              await consoleQuery(server, attackers[0] as Caller, CROSS_JOIN),
              await consoleQuery(server, attackers[0] as Caller, SLOW_REGEX),
            ])()
        const reads = await readWhile(server, other, attack)
        const answers = await attack
        process.stdout.write(
          `sql console (${postgres ? 'postgres' : 'embedded'}): another organisation during the attack: ${summary(reads)}; ` +
            `attack answers ${answers.map((a) => `${a.status} ${String(a.body.code)}`).join(', ')}\n`,
        )
        expect(reads.length).toBeGreaterThan(0)
        expect(reads.every((r) => r.status === 200)).toBe(true)
        expect(answers.every((a) => a.status === 400 || a.status === 429)).toBe(true)
        expect((await readWhile(server, other, Promise.resolve()))[0]?.status).toBe(200)
      } finally {
        server.child.kill('SIGTERM')
        await server.exited
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
