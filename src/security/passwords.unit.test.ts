import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  hashPassword,
  PRODUCTION_PASSWORD_HASHING,
  useProductionPasswordHashing,
  useTestPasswordHashing,
  verifyPassword,
} from './passwords.js'

// The test setup (test/setup.ts) lowers the cost for every file; each test here leaves it so.
afterEach(() => useTestPasswordHashing())

/** The parameters a PHC-format argon2 hash was made with. */
const parametersOf = (passwordHash: string) =>
  /^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(passwordHash)?.[1]

describe('password hashing', () => {
  it('hashes with OWASP argon2id parameters in production: 19 MiB, 2 iterations, 1 lane', async () => {
    expect(PRODUCTION_PASSWORD_HASHING).toEqual({
      algorithm: 2,
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    })
    useProductionPasswordHashing()
    const stored = await hashPassword('correct-horse-battery')
    expect(parametersOf(stored)).toBe('m=19456,t=2,p=1')
    expect(await verifyPassword(stored, 'correct-horse-battery')).toBe(true)
    expect(await verifyPassword(stored, 'wrong-horse-battery')).toBe(false)
  })

  it('verifies hashes of either cost whichever is in use (they carry their parameters)', async () => {
    useProductionPasswordHashing()
    const production = await hashPassword('correct-horse-battery')
    useTestPasswordHashing()
    const cheap = await hashPassword('correct-horse-battery')
    expect(parametersOf(cheap)).toBe('m=64,t=1,p=1')
    expect(await verifyPassword(production, 'correct-horse-battery')).toBe(true)
    useProductionPasswordHashing()
    expect(await verifyPassword(cheap, 'correct-horse-battery')).toBe(true)
    expect(await verifyPassword(cheap, 'wrong-horse-battery')).toBe(false)
  })

  it('refuses the cheap cost outside a test process', () => {
    const nodeEnv = process.env.NODE_ENV
    try {
      for (const value of ['production', 'development', undefined]) {
        if (value === undefined) delete process.env.NODE_ENV
        else process.env.NODE_ENV = value
        expect(() => useTestPasswordHashing()).toThrow(/test processes only/)
      }
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = nodeEnv
    }
  })

  it('is lowered by nothing in the product: only the test setup calls it', () => {
    const src = path.resolve(import.meta.dirname, '..')
    const callers = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => readFileSync(path.join(src, file), 'utf8').includes('useTestPasswordHashing'))
    expect(callers).toEqual([path.join('security', 'passwords.ts')])
  })
})
