import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { shellBlocks } from './markdown.js'
import {
  CLI,
  PROCESS_START_TIMEOUT_MS,
  PROCESS_TEST_TIMEOUT_MS,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

// README.md's "First requests" walk-through cannot rot: its sh blocks run for real, in the order the
// README gives: the server started first (as `npm start` in another terminal) on a fresh embedded
// data directory, then every block, with `npx cartage` mapped to the sources.

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const MARKER = '<!-- walk-through:'

function walkThrough(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const start = readme.indexOf(MARKER)
  if (start < 0) throw new Error(`README.md has no ${MARKER} marker`)
  const end = readme.indexOf('\n## ', start)
  return shellBlocks(readme.slice(start, end < 0 ? undefined : end))
}

// A fresh data directory is the point: the embedded database, whatever the suite runs on.
const dataDir = useServerDataDir('cartage-readme-', { fresh: true })
// The directory the blocks run in (the user's checkout, as far as they know): they must leave it empty.
const workDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-readme-cwd-'))
// TMPDIR of the blocks, so what `mktemp` makes is removed with it.
const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-readme-tmp-'))
let server: ServerProcess | undefined
afterAll(async () => {
  await stopServerProcess(server)
  for (const dir of [workDir, tmpDir]) rmSync(dir, { recursive: true, force: true })
})

const env = () =>
  serverEnv({
    dataDir: dataDir.path,
    // curl keeps a Secure cookie for https (and localhost) only; the test talks to 127.0.0.1.
    vars: { COOKIE_SECURE: 'false' },
  })

/** Runs `script` with bash in the scratch directory; every curl reports `HTTP <status> <url>` on stderr. */
function runBash(script: string, ports: { core: string; global: string }) {
  const prelude = [
    'set -euo pipefail',
    `npx() { if [ "$1" = cartage ]; then shift; (cd ${JSON.stringify(ROOT)} && node ${CLI.join(' ')} "$@"); else command npx "$@"; fi; }`,
    `curl() { command curl -w '%{stderr}HTTP %{http_code} %{url_effective}\\n' "$@"; }`,
  ].join('\n')
  const body = script.replaceAll('localhost:8080', ports.core).replaceAll('localhost:8081', ports.global)
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', `${prelude}\n${body}`],
      { cwd: workDir, env: { ...env(), TMPDIR: tmpDir }, timeout: 240_000, maxBuffer: 10_000_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
      },
    )
  })
}

describe('README.md walk-through', () => {
  it('is marked, starts with the demo and covers every area', () => {
    const blocks = walkThrough()
    expect(blocks[0]).toContain('npx cartage seed --demo')
    const all = blocks.join('\n')
    for (const path of [
      '/api/auth/login',
      '/api/me',
      '/stock',
      '/cost',
      '/api/v1/plans',
      '/api/v1/plans/plan-day',
      '/api/v1/DeliveryZones',
      '/api/v1/insights/dashboard/summary',
      '/api/ai-studio/query',
      '/api/v1/orders',
      '/confirm',
      '/delivery-note',
      '/availability',
    ])
      expect(all).toContain(path)
  })

  // On the embedded database whichever the suite has (a fresh data directory is the point): the
  // PostgreSQL suite would only run the same walk again.
  it.skipIf(testDatabaseUrl() !== undefined)(
    'every request answers 2xx with the server already running, and the blocks leave the checkout clean',
    async () => {
      // As the README has it: `npm start` first, on a fresh data directory (which it creates and
      // migrates: minutes on a busy machine, hence the longer wait).
      server = await startServerProcess(env(), 2 * PROCESS_START_TIMEOUT_MS)
      const ports = { core: host(server.core), global: host(server.global) }
      const blocks = walkThrough()
      const script = [
        ...blocks.map((block, index) => `echo '--- block ${index + 1}' >&2\n${block}`),
        "echo '--- done' >&2",
        // The seed's output again, for the last check: what a second `seed --demo | tee` would keep.
        'printf \'\\n--- password: %s\\n\' "$PASSWORD"',
      ].join('\n')
      const { code, stdout, stderr } = await runBash(script, ports)
      expect(code, `${stderr}\n${stdout}\n${server.output()}`).toBe(0)
      expect(stderr).toContain('--- done')
      // The seed went through the running server (it could not have opened the data directory).
      expect(stdout).toContain(`through the server using ${dataDir.path} (process ${server.child.pid}:`)

      const requests = statusLines(stderr).map((line) => {
        const [, status, url] = line.split(' ')
        return { status: Number(status), path: new URL(url ?? '').pathname }
      })
      expect(requests.length).toBeGreaterThanOrEqual(15)
      for (const request of requests) {
        const accepted = request.status >= 200 && request.status < 300
        expect(accepted, `${request.status} ${request.path}\n${stderr}\n${stdout}`).toBe(true)
      }
      expect(stdout.includes('Harbour Traders'), 'created customer').toBe(true)
      expect(stdout.includes('"costSource":"SubAssembly"'), 'BOM cost with a sub-assembly').toBe(true) // the BOM cost rolls up a level
      expect(stdout.includes('Morning run'), 'the demo plan').toBe(true)
      // Today planned across the two vans: a plan each (their two-hour rounds are too short for one), nothing left out.
      const day = /"data":\{"plans":(.*?),"leftOut":(\[.*?\])\}/.exec(stdout)
      const plans = JSON.parse(day?.[1] ?? '[]') as {
        vehicleId: string
        stops: { plannedArrival: string }[]
      }[]
      expect(new Set(plans.map((p) => p.vehicleId)).size, 'the day across two vans').toBe(2)
      expect(plans.flatMap((p) => p.stops)).toHaveLength(8)
      expect(JSON.parse(day?.[2] ?? 'null'), 'nothing left out').toEqual([])
      expect(stdout.includes('"status":"Delivered"'), 'the shipment delivered').toBe(true)
      expect(stdout.includes('"reserved":'), "the product's availability").toBe(true)
      expect(readdirSync(workDir), 'files the walk-through left in its working directory').toEqual([])

      // Run again, the first block prints the same password (the demo is left as it was).
      const password = /^--- password: (\S+)$/m.exec(stdout)?.[1]
      expect(password).toMatch(/^demo-/)
      const again = await runBash(`${blocks[0]}\nprintf '\\n--- password: %s\\n' "$PASSWORD"`, ports)
      expect(again.code, `${again.stderr}\n${again.stdout}`).toBe(0)
      expect(again.stdout).toContain('already exists')
      expect(again.stdout).toContain(`--- password: ${password}\n`)
      expect(readdirSync(workDir)).toEqual([])
    },
    2 * PROCESS_TEST_TIMEOUT_MS,
  )
})

const host = (url: string) => url.replace(/^https?:\/\//, '')
const statusLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('HTTP '))
