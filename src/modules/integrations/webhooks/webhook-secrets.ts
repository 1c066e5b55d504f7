import type { Config } from '../../../config.js'
import { open, seal, sealingKey } from '../../../security/sealed-box.js'

/** WEBHOOKS_SECRETS_KEY, or the key generated into `<dataDir>/webhook-secrets.key`. */
export const secretsKey = (config: Pick<Config, 'webhooksSecretsKey' | 'dataDir'>): Buffer =>
  sealingKey(config.webhooksSecretsKey, config.dataDir, 'webhook-secrets.key')

/** Binds a stored secret to its endpoint: a value copied to another endpoint or business does not decrypt. */
const contextOf = (businessId: string, endpointId: string) => `webhook:${businessId}:${endpointId}`

/** The secret sealed (AES-256-GCM, security/sealed-box.ts), as base64. */
export const sealSecret = (key: Buffer, businessId: string, endpointId: string, secret: string): string =>
  seal(key, contextOf(businessId, endpointId), secret).toString('base64')

export const openSecret = (key: Buffer, businessId: string, endpointId: string, sealed: string): string =>
  open(key, contextOf(businessId, endpointId), Buffer.from(sealed, 'base64'))

/** The secrets that sign a delivery, decrypted: the current one, then the previous one during its grace period. */
export function signingSecrets(
  config: Pick<Config, 'webhooksSecretsKey' | 'dataDir'>,
  endpoint: { businessId: string; endpointId: string; secret: string; previousSecret: string | null },
): string[] {
  const key = secretsKey(config)
  const open = (sealed: string) => openSecret(key, endpoint.businessId, endpoint.endpointId, sealed)
  return [open(endpoint.secret), ...(endpoint.previousSecret ? [open(endpoint.previousSecret)] : [])]
}
