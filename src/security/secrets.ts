import { createHmac, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Tables } from '../db/tables.js'

/**
 * Secrets we hand out (refresh tokens, one-time tokens, API keys, email links) are random and
 * stored only as HMAC-SHA256 digests under an instance key: a lookup costs microseconds (unlike
 * a password hash) and a copied table yields nothing usable.
 */
export class SecretHasher {
  constructor(private readonly key: Buffer) {}

  digest(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret).digest()
  }
}

/** A new secret: a recognisable prefix and 256 random bits, URL-safe. */
export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`

/** The instance HMAC key: generated once and shared by every process through the database. */
export async function loadSecretHasher(db: Kysely<Tables>): Promise<SecretHasher> {
  await db
    .insertInto('global.instance_secrets')
    .values({ name: 'hmac', value: randomBytes(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const row = await db
    .selectFrom('global.instance_secrets')
    .select('value')
    .where('name', '=', 'hmac')
    .executeTakeFirstOrThrow()
  return new SecretHasher(row.value)
}
