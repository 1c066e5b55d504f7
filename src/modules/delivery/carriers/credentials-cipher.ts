import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '../../../config.js'

const KEY_FILE = 'carrier-credentials.key'
const IV_BYTES = 12
const TAG_BYTES = 16

const keys = new Map<string, Buffer>()

/**
 * The AES-256 key for carrier credentials: CARRIER_CREDENTIALS_KEY, or a random key generated on
 * first start into `<dataDir>/carrier-credentials.key` (mode 0600), never in a tenant table. Several
 * processes on one PostgreSQL server must share the key: configure it rather than rely on the file.
 */
export function credentialsKey(config: Pick<Config, 'carrierCredentialsKey' | 'dataDir'>): Buffer {
  if (config.carrierCredentialsKey) return config.carrierCredentialsKey
  const file = path.join(config.dataDir, KEY_FILE)
  const cached = keys.get(file)
  if (cached) return cached
  let key: Buffer
  try {
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  } catch {
    mkdirSync(config.dataDir, { recursive: true })
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
 * AES-256-GCM with a fresh 96-bit IV; stored as iv || tag || ciphertext. The business and carrier
 * are bound in as associated data, so a row copied to another business or carrier does not decrypt.
 */
export function encryptCredentials(
  key: Buffer,
  context: string,
  credentials: Record<string, string>,
): Buffer {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context))
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body])
}

export function decryptCredentials(key: Buffer, context: string, stored: Buffer): Record<string, string> {
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, IV_BYTES))
  decipher.setAAD(Buffer.from(context))
  decipher.setAuthTag(stored.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  const text = Buffer.concat([decipher.update(stored.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
  return JSON.parse(text.toString('utf8')) as Record<string, string>
}

export const credentialsContext = (businessId: string, carrierId: number) =>
  `carrier:${businessId}:${carrierId}`
