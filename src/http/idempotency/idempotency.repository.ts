import { sql } from 'kysely'
import type { Executor } from '../../db/tables.js'

/** How long a key answers with its first response. */
export const KEY_LIFETIME_HOURS = 24
/**
 * A claim this old without an answer belongs to a process that died mid-request (or a request
 * still running far longer than any should): the key may be claimed again.
 */
export const STALE_CLAIM_MINUTES = 5

export interface StoredAnswer {
  fingerprint: string
  status: number | null
  headers: Record<string, string> | null
  body: string | null
}

export interface KeyRef {
  organizationId: string
  keyHash: string
}

/**
 * Claims the key for this request: a new row, or one whose answer expired or whose claim went
 * stale. True when this request now owns the key; one statement, so of any number of requests
 * racing for a key exactly one wins.
 */
export async function claimKey(
  db: Executor,
  ref: KeyRef,
  claimId: string,
  fingerprint: string,
): Promise<boolean> {
  const { rows } = await sql<{ claim_id: string }>`
    INSERT INTO global.idempotency_keys AS k (organization_id, key_hash, claim_id, fingerprint, expires_at)
    VALUES (${ref.organizationId}, ${ref.keyHash}, ${claimId}, ${fingerprint},
            now() + make_interval(hours => ${KEY_LIFETIME_HOURS}))
    ON CONFLICT (organization_id, key_hash) DO UPDATE
      SET claim_id = excluded.claim_id, fingerprint = excluded.fingerprint, response_status = NULL,
          response_headers = NULL, response_body = NULL, created_at = now(), expires_at = excluded.expires_at
      WHERE k.expires_at <= now()
         OR (k.response_status IS NULL AND k.created_at < now() - make_interval(mins => ${STALE_CLAIM_MINUTES}))
    RETURNING k.claim_id`.execute(db)
  return rows.length === 1
}

/** The key's row as it stands (undefined when it was released or has expired). */
export async function findKey(db: Executor, ref: KeyRef): Promise<StoredAnswer | undefined> {
  return db
    .selectFrom('global.idempotency_keys')
    .select([
      'fingerprint',
      'response_status as status',
      'response_headers as headers',
      'response_body as body',
    ])
    .where('organization_id', '=', ref.organizationId)
    .where('key_hash', '=', ref.keyHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

/** Stores the answer of the request that holds the claim. */
export async function completeKey(
  db: Executor,
  ref: KeyRef,
  claimId: string,
  answer: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await db
    .updateTable('global.idempotency_keys')
    .set({
      response_status: answer.status,
      response_headers: JSON.stringify(answer.headers),
      response_body: answer.body,
    })
    .where('organization_id', '=', ref.organizationId)
    .where('key_hash', '=', ref.keyHash)
    .where('claim_id', '=', claimId)
    .execute()
}

/** Gives the key up (the request failed on our side, or its answer cannot be stored): a retry runs again. */
export async function releaseKey(db: Executor, ref: KeyRef, claimId: string): Promise<void> {
  await db
    .deleteFrom('global.idempotency_keys')
    .where('organization_id', '=', ref.organizationId)
    .where('key_hash', '=', ref.keyHash)
    .where('claim_id', '=', claimId)
    .where('response_status', 'is', null)
    .execute()
}

/** Removes a batch of expired keys; bounded so one purge never holds many row locks. */
export async function purgeExpiredKeys(db: Executor, batch = 1000): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM global.idempotency_keys WHERE ctid IN (
      SELECT ctid FROM global.idempotency_keys WHERE expires_at <= now() LIMIT ${batch})`.execute(db)
  return Number(numAffectedRows ?? 0)
}
