/**
 * Another person's sign-in while a flood of wrong passwords hits one account from rotating
 * addresses (behind a trusted proxy): p50 and p95 of the other person's sign-in, quiet and during the
 * flood, on the built server (`node dist/main.js serve`, embedded database).
 *
 *   npm run build && npx tsx bench/signin-flood.ts [flooders=32] [seconds=10]
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const flooders = Number(process.argv[2] ?? 32)
const seconds = Number(process.argv[3] ?? 10)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function start() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-signin-flood-'))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
    env: {
      ...env,
      CARTAGE_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      CORE_PORT: '0',
      GLOBAL_PORT: '0',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      RATE_LIMIT_PER_IP: '1000000',
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
  return { child, global: out.match(/Global API: (\S+)/)?.[1] ?? '', dataDir }
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

const server = await start()
try {
  const register = async (label: string) => {
    const email = `${label}-${Date.now()}@example.com`
    const password = 'Flood-bench-2026!'
    const response = await post(`${server.global}/api/organizations`, {
      business: { registeredName: `${label} ${Date.now()}`, displayName: label, email: 'ops@example.com' },
      user: {
        firstName: 'F',
        lastName: 'B',
        email,
        password,
        confirmPassword: password,
        acceptedTerms: true,
      },
    })
    if (response.status !== 200) throw new Error(`register: ${response.status} ${await response.text()}`)
    return { email, password }
  }
  const victim = await register('victim')
  const other = await register('other')
  /** The other person's sign-ins, one after another, for `ms`. */
  const signIns = async (ms: number) => {
    const times: number[] = []
    const until = Date.now() + ms
    let n = 0
    while (Date.now() < until) {
      const started = performance.now()
      const response = await post(`${server.global}/api/auth/login`, other, {
        'x-forwarded-for': `198.51.100.${(n++ % 200) + 1}`,
      })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`sign-in: ${response.status}`)
      times.push(performance.now() - started)
    }
    return times
  }
  await signIns(2_000)
  const quiet = await signIns(seconds * 1000)
  let stop = false
  let sent = 0
  const flood = Array.from({ length: flooders }, async (_, i) => {
    let n = 0
    while (!stop) {
      const response = await post(
        `${server.global}/api/auth/login`,
        { email: victim.email, password: 'wrong-password-1' },
        { 'x-forwarded-for': `203.0.${i}.${(n++ % 250) + 1}` },
      )
      await response.arrayBuffer()
      sent++
    }
  })
  await sleep(1_000)
  const during = await signIns(seconds * 1000)
  stop = true
  await Promise.all(flood)
  const row = (label: string, times: number[]) =>
    `| ${label} | ${times.length} | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms |`
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.log(`| another person's sign-in | n | p50 | p95 |\n| --- | ---: | ---: | ---: |`)
  console.log(row('quiet', quiet))
  console.log(row(`during ${flooders} flooders (${sent} wrong passwords)`, during))
  console.log(
    `ratio during/quiet: p50 ${(percentile(during, 50) / percentile(quiet, 50)).toFixed(2)}x, p95 ${(percentile(during, 95) / percentile(quiet, 95)).toFixed(2)}x`,
  )
} finally {
  server.child.kill('SIGTERM')
  await new Promise((resolve) => server.child.once('exit', resolve))
  rmSync(server.dataDir, { recursive: true, force: true })
}
