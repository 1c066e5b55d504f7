import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '../../../config.js'

const KEY_FILE = 'webhook-secrets.key'
const IV_BYTES = 12
const TAG_BYTES = 16

const keys = new Map<string, Buffer>()

/**
 * The AES-256 key for webhook signing secrets: WEBHOOKS_SECRETS_KEY, or a random key generated on
 * first start into `<dataDir>/webhook-secrets.key` (mode 0600), never in a tenant table. Several
 * processes on one PostgreSQL server must share the key: configure it rather than rely on the file.
 */
export function secretsKey(config: Pick<Config, 'webhooksSecretsKey' | 'dataDir'>): Buffer {
  if (config.webhooksSecretsKey) return config.webhooksSecretsKey
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

/** Binds a stored secret to its endpoint: a value copied to another endpoint or business does not decrypt. */
const contextOf = (businessId: string, endpointId: string) =>
  Buffer.from(`webhook:${businessId}:${endpointId}`)

/** AES-256-GCM with a fresh 96-bit IV; stored as base64 of iv || tag || ciphertext. */
export function sealSecret(key: Buffer, businessId: string, endpointId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(contextOf(businessId, endpointId))
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

export function openSecret(key: Buffer, businessId: string, endpointId: string, sealed: string): string {
  const stored = Buffer.from(sealed, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, IV_BYTES))
  decipher.setAAD(contextOf(businessId, endpointId))
  decipher.setAuthTag(stored.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  return Buffer.concat([decipher.update(stored.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  )
}

/** The secrets that sign a delivery, decrypted: the current one, then the previous one during its grace period. */
export function signingSecrets(
  config: Pick<Config, 'webhooksSecretsKey' | 'dataDir'>,
  endpoint: { businessId: string; endpointId: string; secret: string; previousSecret: string | null },
): string[] {
  const key = secretsKey(config)
  const open = (sealed: string) => openSecret(key, endpoint.businessId, endpoint.endpointId, sealed)
  return [open(endpoint.secret), ...(endpoint.previousSecret ? [open(endpoint.previousSecret)] : [])]
}
