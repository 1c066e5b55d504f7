import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { registrationBody, uniqueEmail } from './harness.js'
import {
  PROCESS_TEST_TIMEOUT_MS,
  runCli,
  serverEnv,
  startServerProcess,
  stopServerProcess,
  useServerDataDir,
} from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

const dataDir = useServerDataDir('cartage-keys-')

const env = (extra: Record<string, string> = {}) => {
  const base = serverEnv({
    dataDir: dataDir.path,
    databaseUrl: testDatabaseUrl(),
    vars: { RATE_LIMIT_PER_IP: '100000' },
  })
  // The key lives in the data directory: a key given by the environment would stand in for it.
  delete base.JWT_PRIVATE_KEY
  return { ...base, ...extra }
}
const rotate = (extra: Record<string, string> = {}) => runCli(['keys:rotate'], env(extra))
const file = () => path.join(dataDir.path, 'signing-key.json')
const fileKid = () => JSON.parse(readFileSync(file(), 'utf8')).kid as string

describe('cartage keys:rotate', () => {
  it(
    'writes a new key each time (mode 0600), retires the one it replaces; refuses while JWT_PRIVATE_KEY is set',
    async () => {
      const first = await rotate()
      expect(first.status, first.stderr).toBe(0)
      const kid = fileKid()
      expect(first.stdout).toContain(`new signing key ${kid}`)
      const second = await rotate()
      expect(second.status, second.stderr).toBe(0)
      const next = fileKid()
      expect(next).not.toBe(kid)
      expect(second.stdout).toContain(`retired key ${kid}`)
      expect(statSync(file()).mode & 0o777).toBe(0o600)
      expect(`${first.stdout}${second.stdout}`).not.toContain('PRIVATE KEY')
      const refused = await rotate({ JWT_PRIVATE_KEY: 'anything' })
      expect(refused.status).toBe(2)
      expect(refused.stderr).toContain('JWT_PRIVATE_KEY')
    },
    PROCESS_TEST_TIMEOUT_MS,
  )

  it(
    'a running server signs with the rotated key at once and keeps accepting tokens of the old one (PostgreSQL); embedded, it holds the directory',
    async () => {
      const server = await startServerProcess(env())
      try {
        if (!testDatabaseUrl()) {
          const refused = await rotate()
          expect(refused.status).toBe(1)
          expect(refused.stderr).toMatch(/in use by process \d+/)
          return
        }
        const email = uniqueEmail('rotate')
        const registered = await fetch(`${server.global}/api/organizations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(registrationBody({ email })),
        })
        expect(registered.status).toBe(200)
        const businessId = ((await registered.json()) as { data: { id: string } }).data.id
        const login = async () => {
          const response = await fetch(`${server.global}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: registrationBody().user.password }),
          })
          expect(response.status).toBe(200)
          return ((await response.json()) as { data: { session: { accessToken: string } } }).data.session
            .accessToken
        }
        const me = async (token: string) =>
          (
            await fetch(`${server.core}/api/me`, {
              headers: { authorization: `Bearer ${token}`, 'x-business-id': businessId },
            })
          ).status
        const before = await login()
        expect(decodeProtectedHeader(before).kid).toBe(fileKid())

        const rotated = await rotate()
        expect(rotated.status, rotated.stderr).toBe(0)
        const kid = fileKid()
        expect(decodeProtectedHeader(before).kid).not.toBe(kid)
        // The notice reaches the server's listener shortly after the rotation commits.
        let after = await login()
        for (let i = 0; i < 50 && decodeProtectedHeader(after).kid !== kid; i++) {
          await new Promise((r) => setTimeout(r, 100))
          after = await login()
        }
        expect(decodeProtectedHeader(after).kid).toBe(kid)
        expect(await me(after)).toBe(200)
        expect(await me(before)).toBe(200)
      } finally {
        await stopServerProcess(server)
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  )
})
