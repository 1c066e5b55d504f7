import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

export type EmailTokenPurpose = 'verify_email' | 'reset_password' | 'invitation'

export interface NewEmailToken {
  tokenHash: Buffer
  userId: string
  purpose: EmailTokenPurpose
  organizationId: string | null
  ttlSeconds: number
}

export async function insertEmailToken(db: Executor, token: NewEmailToken) {
  await db
    .insertInto('global.email_tokens')
    .values({
      token_hash: token.tokenHash,
      user_id: token.userId,
      purpose: token.purpose,
      organization_id: token.organizationId,
      // The database clock decides expiry, both here and when the token is consumed.
      expires_at: sql<Date>`now() + make_interval(secs => ${token.ttlSeconds})`,
    })
    .execute()
}

/** A token that is still usable, with its user: read before deciding whether to consume it. */
export async function findUsableEmailToken(db: Executor, tokenHash: Buffer, purpose: EmailTokenPurpose) {
  return db
    .selectFrom('global.email_tokens as t')
    .innerJoin('global.users as u', 'u.id', 't.user_id')
    .select(['t.user_id', 't.organization_id', 'u.email', 'u.password_hash'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.purpose', '=', purpose)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

/**
 * Marks the token used in one statement, only if it is unused and unexpired: of any number of
 * parallel calls with one token, exactly one gets the row.
 */
export async function consumeEmailToken(db: Executor, tokenHash: Buffer, purpose: EmailTokenPurpose) {
  const { rows } = await sql<{ user_id: string; organization_id: string | null }>`
    UPDATE global.email_tokens SET used_at = now()
    WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
    RETURNING user_id, organization_id`.execute(db)
  return rows[0]
}

/** Ends every outstanding token of a user for a purpose (optionally one organisation's). */
export async function retireEmailTokens(
  db: Executor,
  userId: string,
  purpose: EmailTokenPurpose,
  organizationId?: string,
) {
  let query = db
    .updateTable('global.email_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
  if (organizationId) query = query.where('organization_id', '=', organizationId)
  await query.execute()
}
