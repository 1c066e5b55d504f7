import { randomBytes, randomUUID } from 'node:crypto'

export const newId = (): string => randomUUID()

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** Lower-case base32 of random bytes: safe in identifiers and URLs. */
export function shortId(bytes = 8): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of randomBytes(bytes)) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/** `Acme Supplies (Pty) Ltd` -> `acme-supplies-pty-ltd`. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '')
  return slug || 'organization'
}

/** PostgreSQL's unique_violation, as raised through `pg`. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
