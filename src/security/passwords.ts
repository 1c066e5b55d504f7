import { hash, verify } from '@node-rs/argon2'
import type { Reason } from '../errors.js'

export interface PasswordHashing {
  /** 2 = Algorithm.Argon2id (the package exports it as a const enum, which isolated modules cannot read). */
  algorithm: 2
  /** KiB of memory per hash. */
  memoryCost: number
  timeCost: number
  parallelism: number
}

/** OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane. What every stored password is hashed with. */
export const PRODUCTION_PASSWORD_HASHING: Readonly<PasswordHashing> = Object.freeze({
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
})

/** The cheapest argon2id: a test suite registers hundreds of users, each hash ~100x cheaper. */
const TEST_PASSWORD_HASHING: Readonly<PasswordHashing> = Object.freeze({
  algorithm: 2,
  memoryCost: 64,
  timeCost: 1,
  parallelism: 1,
})

let hashing: Readonly<PasswordHashing> = PRODUCTION_PASSWORD_HASHING

/**
 * Test processes only: new hashes use the cheapest argon2id parameters. Nothing in the product
 * calls this (test/architecture checks it), no setting or environment variable reaches it, and
 * it refuses outside NODE_ENV=test (vitest's default), so production cost cannot be lowered by
 * configuration. Verifying reads the parameters from the stored hash, so either kind verifies.
 */
export function useTestPasswordHashing(): void {
  if (process.env.NODE_ENV !== 'test')
    throw new Error('test password hashing is for test processes only (NODE_ENV=test)')
  hashing = TEST_PASSWORD_HASHING
}

/** Back to the production parameters (for the test that checks them). */
export function useProductionPasswordHashing(): void {
  hashing = PRODUCTION_PASSWORD_HASHING
}

export const PASSWORD_MIN_LENGTH = 8
/** Bounded so a megabyte "password" cannot burn CPU in the hash. */
export const PASSWORD_MAX_LENGTH = 128

export const hashPassword = (password: string) => hash(password, hashing)

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

/** The password policy shared by registration, reset and invitation: reasons name `field`. */
export function passwordPolicyReasons(field: string, password: string, email?: string): Reason[] {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return [{ field, message: `must be at least ${PASSWORD_MIN_LENGTH} characters` }]
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return [{ field, message: `must be at most ${PASSWORD_MAX_LENGTH} characters` }]
  }
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) {
    return [{ field, message: 'must not be the email address' }]
  }
  return []
}
