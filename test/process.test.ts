import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { registrationBody, uniqueEmail } from './harness.js'
import {
  migratedDataDir,
  PROCESS_START_TIMEOUT_MS,
  PROCESS_TEST_TIMEOUT_MS,
  runCli,
  startServerProcess,
} from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

// The real binary over real sockets: start-up, configuration errors, SIGTERM draining, restart.
const dataDir = migratedDataDir('cartage-process-')
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const baseEnv = () => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CARTAGE_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    CORE_PORT: '0',
    GLOBAL_PORT: '0',
    LOG_LEVEL: 'info',
    // Other test files register from 127.0.0.1 against the same PostgreSQL counters at the same time.
    RATE_LIMIT_PER_IP: '100000',
  }
  const url = testDatabaseUrl()
  if (url) env.DATABASE_URL = url
  else delete env.DATABASE_URL
  return env
}
const startServer = () => startServerProcess(baseEnv())

/** Registers an organisation, signs in and opens its notification stream; `ended` is all it received. */
async function openNotificationStream(server: { core: string; global: string }) {
  const org = registrationBody({ email: uniqueEmail('stream') })
  const registered = await fetch(`${server.global}/api/organizations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(org),
  })
  const businessId = ((await registered.json()) as { data: { id: string } }).data.id
  const login = await fetch(`${server.global}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: org.user.email, password: org.user.password }),
  })
  const { accessToken } = ((await login.json()) as { data: { session: { accessToken: string } } }).data
    .session
  const response = await fetch(`${server.core}/api/notifications/stream`, {
    headers: { authorization: `Bearer ${accessToken}`, 'x-business-id': businessId },
  })
  expect(response.status).toBe(200)
  return { ended: response.text() }
}

describe('cartage serve', () => {
  it(
    'stops at start-up with one line per bad variable',
    async () => {
      const result = await runCli(['serve'], {
        ...baseEnv(),
        CORE_PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
      })
      expect(result.status).toBe(2)
      const lines = result.stderr.trim().split('\n')
      expect(lines).toHaveLength(3)
      expect(lines.join('\n')).toMatch(/DATABASE_URL.*postgres/)
      expect(lines.join('\n')).toMatch(/LOG_LEVEL.*one of/)
      expect(lines.join('\n')).toMatch(/CORE_PORT.*whole number/)
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'serves both APIs, drains an in-flight request on SIGTERM, ends open streams, and keeps data across a restart',
    async () => {
      const email = uniqueEmail('process')
      const first = await startServer()
      expect((await fetch(`${first.core}/health/ready`)).status).toBe(200)
      expect((await fetch(`${first.global}/docs`)).status).toBe(200)
      const stream = await openNotificationStream(first)
      // The stream's own registration is logged already: wait for one more.
      const registrationsLogged = () => first.output().split('"url":"/api/organizations"').length - 1
      const before = registrationsLogged()

      const pending = fetch(`${first.global}/api/organizations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registrationBody({ email })),
      })
      // Signal only once the server has the request in hand, so draining is what is tested.
      while (registrationsLogged() === before) await new Promise((r) => setTimeout(r, 5))
      first.child.kill('SIGTERM')
      const response = await pending
      expect(response.status).toBe(200)
      // The stream was told the server is going away, and ended.
      expect(await stream.ended).toContain('event: shutdown')
      const firstExit = await first.exited
      expect(firstExit, first.output()).toBe(0)
      // Not the cut-off (exit 1): an open stream no longer holds the stop until then.
      expect(first.output()).not.toContain('shutdown timed out')
      expect(first.output()).not.toContain(registrationBody().user.password)

      const second = await startServer()
      try {
        const check = await fetch(
          `${second.global}/api/organizations/soft-check?emailAddress=${encodeURIComponent(email)}`,
        )
        expect(((await check.json()) as { data: boolean }).data).toBe(true)
      } finally {
        second.child.kill('SIGTERM')
        expect(await second.exited).toBe(0)
      }

      const status = await runCli(['db:status'], baseEnv())
      expect(status.status).toBe(0)
      expect(status.stdout).toContain('global migrations pending: none')
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})

describe('npm start', () => {
  // The real `npm start` (prestart build check, then the server), signalled as a supervisor would.
  async function npmStart(dir: string) {
    const child = spawn('npm', ['start'], { env: { ...baseEnv(), CARTAGE_DATA_DIR: dir } })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    const started = Date.now()
    const deadline = started + 2 * PROCESS_START_TIMEOUT_MS
    while (!/Global API: (\S+)/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start failed:\n${out}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    return {
      child,
      readyMs: Date.now() - started,
      core: /Core API: (\S+)/.exec(out)?.[1] ?? '',
      output: () => out,
    }
  }
  const refused = async (url: string) =>
    fetch(`${url}/health/live`).then(
      () => false,
      () => true,
    )

  // A copy of the migrated data directory: what is tested is the signal's way through npm, not
  // creating a data directory (the gate's start of the built server and the README walk-through
  // start on brand-new ones). The restart without a rebuild is checked once, after SIGTERM.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server when npm gets %s',
    async (signal) => {
      const dir = migratedDataDir('cartage-npm-')
      try {
        const started = await npmStart(dir)
        expect((await fetch(`${started.core}/health/ready`)).status).toBe(200)
        started.child.kill(signal)
        const deadline = Date.now() + 20_000
        while (!(await refused(started.core))) {
          if (Date.now() > deadline) throw new Error(`server still up after ${signal}:\n${started.output()}`)
          await new Promise((r) => setTimeout(r, 100))
        }
        // It stopped cleanly: the database was closed and the lock released (after the sockets
        // closed, so it may take a moment more on a busy machine).
        const lock = path.join(dir, 'cartage.lock')
        const released = Date.now() + 30_000
        while (existsSync(lock) && Date.now() < released) await new Promise((r) => setTimeout(r, 100))
        expect(existsSync(lock), started.output()).toBe(false)
        if (signal !== 'SIGTERM') return
        // A built server starts again without rebuilding.
        const again = await npmStart(dir)
        expect(again.output()).not.toContain('built dist/')
        again.child.kill('SIGTERM')
        const end = Date.now() + 20_000
        while (!(await refused(again.core)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100))
        expect(await refused(again.core)).toBe(true)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
    2 * PROCESS_TEST_TIMEOUT_MS,
  )
})
