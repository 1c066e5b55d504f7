import type { Config } from '../../../config.js'
import { open, seal, sealingKey } from '../../../security/sealed-box.js'

/** CARRIER_CREDENTIALS_KEY, or the key generated into `<dataDir>/carrier-credentials.key`. */
export const credentialsKey = (config: Pick<Config, 'carrierCredentialsKey' | 'dataDir'>): Buffer =>
  sealingKey(config.carrierCredentialsKey, config.dataDir, 'carrier-credentials.key')

/** Sealed with the business and carrier bound in: a row copied to another business or carrier does not decrypt. */
export const encryptCredentials = (
  key: Buffer,
  context: string,
  credentials: Record<string, string>,
): Buffer => seal(key, context, JSON.stringify(credentials))

export const decryptCredentials = (key: Buffer, context: string, stored: Buffer): Record<string, string> =>
  JSON.parse(open(key, context, stored)) as Record<string, string>

export const credentialsContext = (businessId: string, carrierId: number) =>
  `carrier:${businessId}:${carrierId}`
