import { statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { temporaryDir } from '../../organisation/files/files.fixtures.js'
import { credentialsKey, decryptCredentials, encryptCredentials } from './credentials-cipher.js'

describe('carrier credentials key', () => {
  it('is generated once into a 0600 file in the data directory and reused', () => {
    const dir = temporaryDir('carrier-key')
    const key = credentialsKey({ dataDir: dir.dir, carrierCredentialsKey: undefined })
    expect(key).toHaveLength(32)
    const file = path.join(dir.dir, 'carrier-credentials.key')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(credentialsKey({ dataDir: dir.dir, carrierCredentialsKey: undefined }).equals(key)).toBe(true)
    const sealed = encryptCredentials(key, 'ctx', { password: 'p' })
    expect(decryptCredentials(key, 'ctx', sealed)).toEqual({ password: 'p' })
    sealed[sealed.length - 1] = (sealed[sealed.length - 1] as number) ^ 1
    expect(() => decryptCredentials(key, 'ctx', sealed)).toThrow()
    dir.remove()
  })
})
