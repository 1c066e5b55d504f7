import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  PROCESS_TEST_TIMEOUT_MS,
  runCli,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

// One process per embedded data directory, with real processes: a second server, the migration
// commands, and a holder killed with SIGKILL. The embedded database only: serverEnv leaves out the
// suite's DATABASE_URL.
const dataDir = useServerDataDir('cartage-lock-')
const env = () => serverEnv({ dataDir: dataDir.path })
const lockFile = () => path.join(dataDir.path, 'cartage.lock')
const startHolder = () => startServerProcess(env())

const run = (command: string) => runCli([command], env())

describe.skipIf(testDatabaseUrl() !== undefined)('the embedded data directory lock', () => {
  it(
    'refuses a second server and the migration commands while a server holds the directory',
    async () => {
      const holder = await startHolder()
      try {
        const pid = String(holder.child.pid)
        // All three at once: each is refused on its own, and none waits for another's start-up.
        const [second, ...commands] = await Promise.all(['serve', 'db:status', 'migrate'].map(run))
        expect(second?.status).toBe(1)
        expect(second?.stderr).toContain(`in use by process ${pid}`)
        expect(second?.stdout).not.toContain('Core API')
        for (const [i, command] of ['db:status', 'migrate'].entries()) {
          expect(commands[i]?.status, command).toBe(1)
          expect(commands[i]?.stderr, command).toContain(`in use by process ${pid}`)
        }
        // The holder is unharmed.
        expect((await fetch(`${holder.core}/health/ready`)).status).toBe(200)
        holder.child.kill('SIGTERM')
        expect(await holder.exited).toBe(0)
      } finally {
        await stopServerProcess(holder)
      }
      // A clean stop releases the lock at once.
      expect(existsSync(lockFile())).toBe(false)
      expect((await run('db:status')).status).toBe(0)
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'recovers the lock of a holder killed with SIGKILL',
    async () => {
      const holder = await startHolder()
      holder.child.kill('SIGKILL')
      await holder.exited
      // The dead holder's lock is still on disk; the next server waits it out and starts.
      expect(existsSync(lockFile())).toBe(true)
      let next: ServerProcess | undefined
      try {
        next = await startHolder()
        expect((await fetch(`${next.core}/health/ready`)).status).toBe(200)
        next.child.kill('SIGTERM')
        expect(await next.exited).toBe(0)
      } finally {
        await stopServerProcess(next)
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'leaves no temporary folder behind when the start fails (port in use)',
    async () => {
      // Another program holds the port the server is told to use.
      const blocker = (await import('node:net')).createServer()
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
      const address = blocker.address()
      const port = String(typeof address === 'object' && address ? address.port : '')
      // A private TMPDIR: what the failed start leaves there is all its own.
      const tmp = mkdtempSync(path.join(os.tmpdir(), 'cartage-lock-tmp-'))
      try {
        const failed = await runCli(['serve'], { ...env(), CORE_PORT: port, TMPDIR: tmp })
        expect(failed.status).toBe(1)
        expect(failed.stderr).toContain('EADDRINUSE')
      } finally {
        blocker.close()
      }
      expect(readdirSync(tmp).filter((n) => n.startsWith('cartage-pg-'))).toEqual([])
      rmSync(tmp, { recursive: true, force: true })
      expect(existsSync(lockFile())).toBe(false)
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
