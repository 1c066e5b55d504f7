import { readFileSync, rmSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  PROCESS_TEST_TIMEOUT_MS,
  runCli,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from '../../test/server-process.js'
import { testDatabaseUrl } from '../../test/test-database.js'
import { demoCredentialsFile } from './seed-command.js'
import { DEMO_EMAIL } from './seed-demo.js'

// The seed command in its own processes (seed-demo.test.ts has the seeding itself, in process): a
// file apart, so that the two run side by side and the Node 24 pass takes only this one. One data
// directory, seeded by the first test, serves the story's later steps, each a test of its own.
// The command runs on an embedded data directory whichever database the suite has, so the
// PostgreSQL suite would only repeat the embedded run, on a directory it must first migrate (it has
// no migrated template): 218 s of a worker at load 13.
describe.skipIf(testDatabaseUrl() !== undefined)('seed --demo as a command', () => {
  // An embedded data directory whatever database the suite runs on (serverEnv removes DATABASE_URL).
  const dir = useServerDataDir('cartage-seed-')
  const env = () => serverEnv({ dataDir: dir.path })
  const seed = () => runCli(['seed', '--demo'], env())
  let password = ''

  it(
    'seeds once and keeps the password, readable by its owner only',
    async () => {
      const first = await seed()
      expect(first.status, first.stderr).toBe(0)
      expect(first.stdout).toContain(`seeding the demo organisation on embedded PGlite in ${dir.path}`)
      expect(first.stdout).toContain(`email:    ${DEMO_EMAIL}`)
      expect(first.stdout.split('\n').filter((line) => /^\[\s?\d+\]/.test(line))).toHaveLength(19)
      password = /password: (demo-\S{12})\n/.exec(first.stdout)?.[1] ?? ''
      expect(password).not.toBe('')
      const kept = demoCredentialsFile(dir.path)
      expect(statSync(kept).mode & 0o777).toBe(0o600)
      expect(JSON.parse(readFileSync(kept, 'utf8'))).toMatchObject({ email: DEMO_EMAIL, password })
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'run again while a server holds the directory: goes through its APIs, changes nothing, prints the same password',
    async () => {
      expect(password, 'the first seed').not.toBe('')
      const server = await startServerProcess(env())
      try {
        const again = await seed()
        expect(again.status, again.stderr).toBe(0)
        expect(again.stdout).toContain(`through the server using ${dir.path} (process ${server.child.pid}:`)
        expect(again.stdout).toContain('already exists')
        expect(again.stdout).toContain(`password: ${password}\n`)
        expect(again.stdout).not.toMatch(/^\[\s?\d+\]/m)
        const login = await fetch(`${server.global}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: DEMO_EMAIL, password }),
        })
        expect(login.status).toBe(200)
      } finally {
        await stopServerProcess(server)
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'without the kept file, says the password cannot be told again and prints none',
    async () => {
      expect(password, 'the first seed').not.toBe('')
      rmSync(demoCredentialsFile(dir.path))
      const unknown = await seed()
      expect(unknown.status, unknown.stderr).toBe(0)
      expect(unknown.stdout).toContain(`already exists; its owner is ${DEMO_EMAIL}`)
      expect(unknown.stdout).toContain('is not kept in')
      expect(unknown.stdout).not.toContain('password:')
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'refuses `seed` without --demo (status 2)',
    async () => {
      const bare = await runCli(['seed'], env())
      expect(bare.status).toBe(2)
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
