import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { registrationBody, uniqueEmail } from './harness.js'
import {
  PROCESS_START_TIMEOUT_MS,
  PROCESS_TEST_TIMEOUT_MS,
  runCli,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

// The real binary over real sockets: start-up, configuration errors, SIGTERM draining, restart.
const dataDir = useServerDataDir('cartage-process-')

const baseEnv = (dir = dataDir.path) =>
  serverEnv({
    dataDir: dir,
    databaseUrl: testDatabaseUrl(),
    vars: {
      // The drain test reads the request log.
      LOG_LEVEL: 'info',
      // Other test files register from 127.0.0.1 against the same PostgreSQL counters at the same time.
      RATE_LIMIT_PER_IP: '100000',
    },
  })
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
      let second: ServerProcess | undefined
      try {
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
        expect(await first.exited, first.output()).toBe(0)
        // Not the cut-off (exit 1): an open stream no longer holds the stop until then.
        expect(first.output()).not.toContain('shutdown timed out')
        expect(first.output()).not.toContain(registrationBody().user.password)

        second = await startServer()
        const check = await fetch(
          `${second.global}/api/organizations/soft-check?emailAddress=${encodeURIComponent(email)}`,
        )
        expect(((await check.json()) as { data: boolean }).data).toBe(true)
        second.child.kill('SIGTERM')
        expect(await second.exited, second.output()).toBe(0)
      } finally {
        // Only after a failure is either still running.
        await stopServerProcess(first)
        await stopServerProcess(second)
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
    const child = spawn('npm', ['start'], { env: baseEnv(dir) })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const deadline = Date.now() + 2 * PROCESS_START_TIMEOUT_MS
    while (!/Global API: (\S+)/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL')
        throw new Error(`npm start failed:\n${out}`)
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    return { child, exited, core: /Core API: (\S+)/.exec(out)?.[1] ?? '', output: () => out }
  }
  const refused = async (url: string) =>
    fetch(`${url}/health/live`).then(
      () => false,
      () => true,
    )

  const dataDir = useServerDataDir('cartage-npm-')

  // A copy of the migrated data directory: what is tested is the signal's way through npm, not
  // creating a data directory (the gate's start of the built server and the README walk-through
  // start on brand-new ones). npm waits for the script it runs, so its exit is the server's.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server when npm gets %s',
    async (signal) => {
      const started = await npmStart(dataDir.path)
      try {
        expect((await fetch(`${started.core}/health/ready`)).status).toBe(200)
        started.child.kill(signal)
        await started.exited
        expect(await refused(started.core), started.output()).toBe(true)
        // It stopped cleanly: the database was closed and the lock released.
        expect(existsSync(path.join(dataDir.path, 'cartage.lock')), started.output()).toBe(false)
      } finally {
        // Only after a failure is it still running; npm passes the signal on to the server.
        if (started.child.exitCode === null && started.child.signalCode === null)
          started.child.kill('SIGTERM')
        await started.exited
      }
      // A built server starts without rebuilding: this start shows it, unless it was the one that
      // built (dist/ older than the sources); then one more start must.
      if (!started.output().includes('built dist/')) return
      const again = await npmStart(dataDir.path)
      expect(again.output()).not.toContain('built dist/')
      again.child.kill('SIGTERM')
      await again.exited
      expect(await refused(again.core)).toBe(true)
    },
    2 * PROCESS_TEST_TIMEOUT_MS,
  )
})
