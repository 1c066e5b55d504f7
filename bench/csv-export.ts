/**
 * A long list exported as CSV: the server's memory while it streams 10,000 and then 100,000
 * customers (`GET /api/v1/Customers?$format=csv`), read by a client as it arrives. The export reads
 * the list a page at a time (src/http/csv-export.ts), so the server's resident memory should not
 * grow with the length of the list: the goal is a peak growth for 100,000 rows within 1.5x of the
 * growth for 10,000 (and no more than 64 MB), with every row in the file.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/csv-export.ts
 *
 * PostgreSQL only (the customers are added with generate_series, bench/scale.ts). The client asks
 * for no compression unless CSV_ENCODING names one (`br`, `gzip`), as a browser would. Replaces its
 * section of bench/RESULTS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { benchServerEnv, startServer } from './children.js'
import { rssMb } from './proc.js'
import { resolveSeed } from './resolve-seed.js'
import { grow } from './scale.js'
import { seed } from './seed.js'

const GOAL_RATIO = 1.5
const GOAL_MB = 64
const SIZES = [10_000, 100_000]

interface Export {
  rows: number
  bytes: number
  seconds: number
  baseMb: number
  peakMb: number
}

/** Streams one export, sampling the server's memory every 20 ms while the body arrives. */
async function exportOnce(url: string, headers: Record<string, string>, pid: number): Promise<Export> {
  global.gc?.()
  const baseMb = rssMb(pid)
  let peakMb = baseMb
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(pid))
  }, 20)
  const start = process.hrtime.bigint()
  const encoding = process.env.CSV_ENCODING ?? 'identity'
  const response = await fetch(url, { headers: { ...headers, 'accept-encoding': encoding } })
  if (response.status !== 200 || !response.body) throw new Error(`csv-export: ${response.status}`)
  let bytes = 0
  let lines = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength
    for (const byte of chunk) if (byte === 10) lines++
  }
  clearInterval(sampler)
  peakMb = Math.max(peakMb, rssMb(pid))
  return { rows: lines - 1, bytes, seconds: Number(process.hrtime.bigint() - start) / 1e9, baseMb, peakMb }
}

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('csv-export: set DATABASE_URL (PostgreSQL)')
const server = await startServer('cartage-server.ts', benchServerEnv())
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
const results: Export[] = []
try {
  const core = `http://127.0.0.1:${server.ports.core}`
  for (const size of SIZES) {
    // An organisation of its own for each size: grow() numbers its customers from 1.
    const s = await seed(`http://127.0.0.1:${server.ports.global}`, core)
    const { schemaName } = await resolveSeed(pool, s)
    const headers = { authorization: `Bearer ${s.accessToken}`, 'x-business-id': s.businessId }
    await grow(pool, schemaName, s.businessId, size)
    const done = await exportOnce(`${core}/api/v1/Customers?$format=csv`, headers, server.pid)
    if (done.rows !== size) throw new Error(`csv-export: ${done.rows} rows in the file, ${size} expected`)
    results.push(done)
    process.stdout.write(
      `${size} rows: ${(done.bytes / 1e6).toFixed(1)} MB in ${done.seconds.toFixed(1)} s, server ${done.baseMb.toFixed(0)} -> ${done.peakMb.toFixed(0)} MB\n`,
    )
  }
} finally {
  await server.stop()
  await pool.end()
}

const growth = results.map((r) => r.peakMb - r.baseMb)
const [small = 0, large = 0] = growth
const ratio = large / Math.max(small, 1)
const met = ratio <= GOAL_RATIO && large <= GOAL_MB
const HEADING = '## CSV export of a long list (PostgreSQL)'
const section =
  `${HEADING}\n\n` +
  '`DATABASE_URL=... npx tsx bench/csv-export.ts`: the server streams `GET /api/v1/Customers?$format=csv` to a client ' +
  "reading it as it arrives; the server's resident memory is sampled every 20 ms. Goal: the peak growth for " +
  `100,000 rows within ${GOAL_RATIO}x of that for 10,000, and under ${GOAL_MB} MB.\n\n` +
  '| rows | file | time | server memory before -> peak | growth |\n|---:|---:|---:|---:|---:|\n' +
  results
    .map(
      (r, i) =>
        `| ${SIZES[i]?.toLocaleString('en')} | ${(r.bytes / 1e6).toFixed(1)} MB | ${r.seconds.toFixed(1)} s | ${r.baseMb.toFixed(0)} -> ${r.peakMb.toFixed(0)} MB | ${growth[i]?.toFixed(1)} MB |`,
    )
    .join('\n') +
  `\n\nGrowth 100,000 / 10,000: **${ratio.toFixed(2)}x**, ${met ? 'met' : '**not met**'} ` +
  `(${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}).\n`
process.stdout.write(`\n${section}`)
const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
const current = readFileSync(file, 'utf8')
const at = current.indexOf(HEADING)
const end = at < 0 ? -1 : current.indexOf('\n## ', at + HEADING.length)
writeFileSync(
  file,
  at < 0
    ? `${current.trimEnd()}\n\n${section}`
    : `${current.slice(0, at)}${section}${end < 0 ? '' : current.slice(end)}`,
)
