import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI } from './server-process.js'
import { testDatabaseUrl } from './test-database.js'

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cartage-keys-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const run = (env: Record<string, string> = {}) => {
  const base: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CARTAGE_DATA_DIR: dataDir,
    ...env,
  }
  const url = testDatabaseUrl()
  if (url) base.DATABASE_URL = url
  else delete base.DATABASE_URL
  delete base.JWT_PRIVATE_KEY
  return spawnSync(process.execPath, [...CLI, 'keys:rotate'], { env: { ...base, ...env }, encoding: 'utf8' })
}

describe('cartage keys:rotate', () => {
  it('writes a new key each time (mode 0600) and says so; refuses while JWT_PRIVATE_KEY is set', () => {
    const file = path.join(dataDir, 'signing-key.json')
    const first = run()
    expect(first.status, first.stderr).toBe(0)
    const kid = JSON.parse(readFileSync(file, 'utf8')).kid as string
    expect(first.stdout).toContain(`new signing key ${kid}`)
    const second = run()
    expect(second.status, second.stderr).toBe(0)
    const next = JSON.parse(readFileSync(file, 'utf8')).kid as string
    expect(next).not.toBe(kid)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(`${first.stdout}${second.stdout}`).not.toContain('PRIVATE KEY')
    const refused = run({ JWT_PRIVATE_KEY: 'anything' })
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain('JWT_PRIVATE_KEY')
  })
})
