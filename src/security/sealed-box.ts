import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const IV_BYTES = 12
const TAG_BYTES = 16

const keys = new Map<string, Buffer>()

/**
 * An AES-256 key for data kept encrypted at rest (carrier credentials, webhook signing secrets):
 * the configured one, or a random key generated on first start into `<dataDir>/<fileName>`
 * (mode 0600), never in a tenant table. Several processes on one PostgreSQL server must share the
 * key: configure it rather than rely on the file.
 */
export function sealingKey(configured: Buffer | undefined, dataDir: string, fileName: string): Buffer {
  if (configured) return configured
  const file = path.join(dataDir, fileName)
  const cached = keys.get(file)
  if (cached) return cached
  let key: Buffer
  try {
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  } catch {
    mkdirSync(dataDir, { recursive: true })
    try {
      // 'wx' fails if another process created it first; then that one's key is read instead.
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  }
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`)
  keys.set(file, key)
  return key
}

/**
 * AES-256-GCM with a fresh 96-bit IV, as iv || tag || ciphertext. `context` is bound in as
 * associated data (the owner of the value, e.g. `carrier:<business>:<carrier>`), so a value copied
 * to another owner does not open.
 */
export function seal(key: Buffer, context: string, plaintext: string): Buffer {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context))
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body])
}

/** The plaintext of a sealed value; throws when the key, the context or the value is not the one sealed. */
export function open(key: Buffer, context: string, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES))
  decipher.setAAD(Buffer.from(context))
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  )
}
