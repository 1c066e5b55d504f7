import { hash, verify } from '@node-rs/argon2'
import type { Reason } from '../errors.js'

// OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane. (2 = Algorithm.Argon2id; the
// package exports it as a const enum, which isolated modules cannot read.)
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const PASSWORD_MIN_LENGTH = 8
/** Bounded so a megabyte "password" cannot burn CPU in the hash. */
export const PASSWORD_MAX_LENGTH = 128

export const hashPassword = (password: string) => hash(password, ARGON2ID)

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
