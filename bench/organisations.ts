/**
 * Many organisations on one PostgreSQL (BENCH_ORGANISATIONS, default 10,000), on a new scratch
 * database beside DATABASE_URL's, dropped at the end (BENCH_ORGANISATIONS_KEEP=1 keeps it):
 *
 * - registration rate: organisations registered through the Global API (each also signs in, makes
 *   an API key and one customer, as bench/seed.ts does), 4 at a time, reported per tenth;
 * - the server's memory (RSS) after registering, and after a restart once idle;
 * - start-up: a new server process until it listens (it checks every schema's migrations);
 * - a new module's tenant migration (one table with its audit trigger) applied across every
 *   organisation by `migrate` while the server answers round-robin reads: its time, and the
 *   reads answered meanwhile (any failure is counted);
 * - `db:status`: the status over every schema, in-process and as the CLI (`tsx src/main.ts`);
 * - round-robin reads over all organisations against the same read of one, interleaved rounds.
 *
 * Run on its own (a long run: about 30 minutes for 10,000 on two shared cores); it prints its
 * figures and leaves RESULTS.md alone:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cartage_bench npx tsx bench/organisations.ts
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { MIGRATIONS } from '../src/apps/modules.js'
import { openDatabase } from '../src/db/database.js'
import { migrate, migrationStatus } from '../src/db/migrator.js'
import { createScratchDatabase } from '../test/scratch-database.js'
import { benchServerEnv, type ServerProcess, startServer } from './children.js'
import { median } from './load.js'
import type { Seed } from './scenario-types.js'
import { seed } from './seed.js'

const ORGANISATIONS = Number(process.env.BENCH_ORGANISATIONS ?? 10_000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024
}

const read = (core: string, s: Seed) => ({
  url: `${core}/api/v1/Customers/${s.customerId}`,
  headers: { authorization: `Bearer ${s.accessToken}`, 'x-business-id': s.businessId },
})

/** Requests answered per second over `seconds` with CONNECTIONS in flight (failures counted, not thrown). */
async function throughput(
  next: () => { url: string; headers: Record<string, string> },
  until: () => boolean,
): Promise<{ done: number; failed: number }> {
  let done = 0
  let failed = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!until()) {
        const { url, headers } = next()
        try {
          const response = await fetch(url, { headers })
          await response.arrayBuffer()
          if (response.status === 200) done++
          else failed++
        } catch {
          failed++
        }
      }
    }),
  )
  return { done, failed }
}

const forSeconds = async (next: () => { url: string; headers: Record<string, string> }) => {
  const end = performance.now() + SECONDS * 1000
  const { done } = await throughput(next, () => performance.now() >= end)
  return done / SECONDS
}

const out = (text: string) => process.stdout.write(text)

async function main() {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) throw new Error('DATABASE_URL is needed (PostgreSQL only)')
  const env: NodeJS.ProcessEnv = { RATE_LIMIT_PER_ACCOUNT: '1000000', ...benchServerEnv() }
  const database = await createScratchDatabase(databaseUrl, 'orgs')
  const servers: ServerProcess[] = []
  const report: string[] = []
  const say = (line: string) => {
    report.push(line)
    out(`${line}\n`)
  }
  try {
    const start = async () => {
      const began = performance.now()
      const server = await startServer('cartage-server.ts', { ...env, DATABASE_URL: database.url })
      servers.push(server)
      return {
        server,
        seconds: (performance.now() - began) / 1000,
        core: `http://127.0.0.1:${server.ports.core}`,
        global: `http://127.0.0.1:${server.ports.global}`,
      }
    }
    let serving = await start()
    say(`${ORGANISATIONS} organisations, ${CONNECTIONS} reads in flight, ${SECONDS} s x ${ROUNDS} rounds`)
    say(
      `start-up with no organisation: ${serving.seconds.toFixed(1)} s, RSS ${rssMb(serving.server.pid).toFixed(0)} MB`,
    )

    // Registration, 4 at a time, timed per tenth.
    const seeds: Seed[] = []
    const tenth = Math.max(1, Math.round(ORGANISATIONS / 10))
    const began = performance.now()
    let next = 0
    let chunkStart = performance.now()
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < ORGANISATIONS) {
          next++
          seeds.push(await seed(serving.global, serving.core, 1))
          if (seeds.length % tenth === 0) {
            const now = performance.now()
            say(
              `registered ${seeds.length}: ${(tenth / ((now - chunkStart) / 1000)).toFixed(1)} organisations/s over the last ${tenth}, server RSS ${rssMb(serving.server.pid).toFixed(0)} MB`,
            )
            chunkStart = now
          }
        }
      }),
    )
    const registering = (performance.now() - began) / 1000
    say(
      `registered ${seeds.length} in ${registering.toFixed(0)} s: ${(seeds.length / registering).toFixed(1)} organisations/s (each: register, sign in, API key, one customer, first page)`,
    )
    say(`server RSS after registering: ${rssMb(serving.server.pid).toFixed(0)} MB`)

    // Start-up of a new process over all of them.
    await serving.server.stop()
    servers.pop()
    serving = await start()
    await new Promise((resolve) => setTimeout(resolve, 3000))
    say(
      `start-up with ${seeds.length} organisations: ${serving.seconds.toFixed(1)} s to listening; idle RSS ${rssMb(serving.server.pid).toFixed(0)} MB`,
    )

    // db:status, in-process and as the CLI.
    const db = await openDatabase({
      databaseUrl: database.url,
      dataDir: '/nonexistent',
      poolSize: 2,
      migrations: MIGRATIONS,
    })
    try {
      let t = performance.now()
      const status = await migrationStatus(db)
      say(
        `db:status in-process: ${((performance.now() - t) / 1000).toFixed(2)} s (${status.tenantSchemas} schemas, ${status.tenantSchemasBehind} behind)`,
      )
      t = performance.now()
      await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'db:status'], {
        env: { ...env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
      })
      say(
        `db:status as the CLI (tsx, process start included): ${((performance.now() - t) / 1000).toFixed(2)} s`,
      )
    } finally {
      await db.close()
    }

    // Round-robin reads against the same read of one organisation.
    const one = () => read(serving.core, seeds[0] as Seed)
    let turn = 0
    const spread = () => read(serving.core, seeds[turn++ % seeds.length] as Seed)
    await forSeconds(one)
    await forSeconds(spread)
    const rounds: { one: number; spread: number }[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const round = { one: await forSeconds(one), spread: await forSeconds(spread) }
      rounds.push(round)
      out(
        `  reads round ${r + 1}: one ${round.one.toFixed(0)} req/s, round-robin ${round.spread.toFixed(0)} req/s\n`,
      )
    }
    say(
      `reads: one organisation ${median(rounds.map((x) => x.one)).toFixed(0)} req/s, round-robin over ${seeds.length} ${median(rounds.map((x) => x.spread)).toFixed(0)} req/s, ratio ${median(rounds.map((x) => x.spread / x.one)).toFixed(3)}x (median of per-round ratios)`,
    )
    say(`server RSS after the reads: ${rssMb(serving.server.pid).toFixed(0)} MB`)

    // A new module's tenant migration across every organisation, online: reads go on meanwhile.
    const probe = {
      ...MIGRATIONS,
      tenant: [
        ...MIGRATIONS.tenant,
        {
          name: '29991231000000-bench-probe',
          sql: 'CREATE TABLE bench_probe (id uuid PRIMARY KEY, business_id uuid NOT NULL, note text)',
        },
      ],
    }
    const migrating = await openDatabase({
      databaseUrl: database.url,
      dataDir: '/nonexistent',
      poolSize: 2,
      migrations: probe,
    })
    try {
      let migrated = false
      const readsDuring = throughput(spread, () => migrated)
      const t = performance.now()
      const done = await migrate(migrating)
      const seconds = (performance.now() - t) / 1000
      migrated = true
      const during = await readsDuring
      say(
        `a new tenant migration across ${done.tenantSchemasMigrated} schemas: ${seconds.toFixed(0)} s (${(done.tenantSchemasMigrated / seconds).toFixed(0)} schemas/s); round-robin reads meanwhile ${(during.done / seconds).toFixed(0)} req/s, ${during.failed} failed`,
      )
    } finally {
      await migrating.close()
    }
    out(`\n== organisations ==\n${report.join('\n')}\n`)
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
    if (process.env.BENCH_ORGANISATIONS_KEEP === '1') out(`kept ${database.url}\n`)
    else await database.drop()
  }
}

await main()
