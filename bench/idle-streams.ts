/**
 * What idle notification streams cost: the built server (`node dist/main.js serve`) with N streams
 * open and nothing happening, as CPU (share of one core, from /proc/<pid>/stat) and resident
 * memory beside the same server with none open. Both databases when DATABASE_URL is set.
 *
 *   npm run build && npx tsx bench/idle-streams.ts 1000            # embedded
 *   DATABASE_URL=postgres://... npx tsx bench/idle-streams.ts 1000  # and PostgreSQL
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { cpuTicks, rssMb } from './proc.js'

const streams = Number(process.argv[2] ?? 1000)
const SAMPLE_MS = 10_000
const ticksPerSecond = 100 // USER_HZ on Linux

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Share of one core the process used over the sample. */
async function cpuShare(pid: number) {
  const before = cpuTicks(pid)
  await sleep(SAMPLE_MS)
  return (cpuTicks(pid) - before) / ticksPerSecond / (SAMPLE_MS / 1000)
}

async function start(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-idle-streams-'))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
    env: {
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      CARTAGE_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      CORE_PORT: '0',
      GLOBAL_PORT: '0',
      LOG_LEVEL: 'warn',
    },
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  while (!out.includes('Global API:')) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${out}`)
    await sleep(100)
  }
  const core = out.match(/Core API: (\S+)/)?.[1] ?? ''
  const global = out.match(/Global API: (\S+)/)?.[1] ?? ''
  return { child, core, global, dataDir }
}

async function measure(label: string, databaseUrl: string | undefined) {
  const server = await start(databaseUrl)
  const pid = server.child.pid ?? 0
  const post = async (url: string, body: unknown) =>
    (await (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as { data: Record<string, unknown> }
  const email = `idle-${Date.now()}@example.com`
  const password = 'Idle-streams-2026!'
  const registered = await post(`${server.global}/api/organizations`, {
    business: { registeredName: `Idle ${Date.now()}`, displayName: 'Idle', email: 'ops@example.com' },
    user: { firstName: 'I', lastName: 'S', email, password, confirmPassword: password, acceptedTerms: true },
  })
  const businessId = String(registered.data.id)
  const login = await post(`${server.global}/api/auth/login`, { email, password })
  const token = (login.data.session as { accessToken: string }).accessToken
  await sleep(2_000)
  const quiet = { cpu: await cpuShare(pid), rss: rssMb(pid) }

  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
  const open: http.ClientRequest[] = []
  const url = new URL('/api/notifications/stream', server.core)
  await Promise.all(
    Array.from(
      { length: streams },
      () =>
        new Promise<void>((resolve, reject) => {
          const request = http.get(
            url,
            { agent, headers: { authorization: `Bearer ${token}`, 'x-business-id': businessId } },
            (response) => {
              if (response.statusCode !== 200) reject(new Error(`stream: ${response.statusCode}`))
              response.once('data', () => resolve())
            },
          )
          request.on('error', reject)
          open.push(request)
        }),
    ),
  )
  await sleep(3_000)
  const idle = { cpu: await cpuShare(pid), rss: rssMb(pid) }
  for (const request of open) request.destroy()
  server.child.kill('SIGTERM')
  await new Promise((resolve) => server.child.once('exit', resolve))
  rmSync(server.dataDir, { recursive: true, force: true })
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`
  console.log(
    `| ${label} | ${streams} | ${pct(quiet.cpu)} | ${pct(idle.cpu)} | ${quiet.rss.toFixed(0)} MB | ${idle.rss.toFixed(0)} MB (+${(idle.rss - quiet.rss).toFixed(0)}) |`,
  )
}

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
console.log('| database | streams | CPU, none open | CPU, all idle | RSS, none open | RSS, all idle |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
await measure('embedded', undefined)
if (process.env.DATABASE_URL) await measure('PostgreSQL', process.env.DATABASE_URL)
