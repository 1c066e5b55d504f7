import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

export const API_KEY_COLUMNS = [
  'id',
  'business_id',
  'label',
  'key_prefix',
  'scopes',
  'expires_at',
  'last_used_at',
  'date_created',
] as const

/** The organisation's keys that still count: revoked keys are gone from every list. */
export const activeKeys = (db: Executor, organizationId: string) =>
  db
    .selectFrom('global.api_keys')
    .select(API_KEY_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)

export interface NewApiKey {
  id: string
  organizationId: string
  businessId: string
  createdByUserId: string
  label: string | null
  keyHash: Buffer
  keyPrefix: string
  scopes: string | null
  expiresAt: Date | null
}

export async function insertApiKey(db: Executor, key: NewApiKey) {
  return db
    .insertInto('global.api_keys')
    .values({
      id: key.id,
      organization_id: key.organizationId,
      business_id: key.businessId,
      created_by_user_id: key.createdByUserId,
      label: key.label,
      key_hash: key.keyHash,
      key_prefix: key.keyPrefix,
      scopes: key.scopes,
      expires_at: key.expiresAt,
    })
    .returning(API_KEY_COLUMNS)
    .executeTakeFirstOrThrow()
}

/** Sets revoked_at once (a second revocation keeps the first time); undefined when no such key. */
export async function revokeApiKey(db: Executor, id: string, organizationId: string) {
  return db
    .updateTable('global.api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .returning(['id', 'business_id', 'label', 'key_prefix'])
    .executeTakeFirst()
}
