import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

/** The user with this address in any case (unique on lower(email)); callers pick the columns. */
export const userByEmail = (db: Executor, email: string) =>
  db.selectFrom('global.users').where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())

export async function findUserByEmail(db: Executor, email: string) {
  return userByEmail(db, email).select(['id', 'email', 'password_hash']).executeTakeFirst()
}

/** The user's active memberships with their organisations, oldest first. */
export async function activeMemberships(db: Executor, userId: string) {
  return db
    .selectFrom('global.memberships as m')
    .innerJoin('global.organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.slug', 'o.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .where('m.status', '=', 'Active')
    .orderBy('m.date_created')
    .execute()
}

export async function findOrganization(db: Executor, organizationId: string) {
  return db
    .selectFrom('global.organizations')
    .select(['id', 'slug', 'name'])
    .where('id', '=', organizationId)
    .executeTakeFirst()
}

export interface NewSession {
  id: string
  userId: string
  organizationId: string
  businessId: string | null
  scopes: Record<string, number> | null
  expiresAt: Date
}

export async function insertSession(db: Executor, session: NewSession) {
  await db
    .insertInto('global.sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      organization_id: session.organizationId,
      business_id: session.businessId,
      scopes: session.scopes === null ? null : JSON.stringify(session.scopes),
      expires_at: session.expiresAt,
    })
    .execute()
}

export async function insertRefreshToken(
  db: Executor,
  sessionId: string,
  tokenHash: Buffer,
  expiresAt: Date,
) {
  await db
    .insertInto('global.refresh_tokens')
    .values({ token_hash: tokenHash, session_id: sessionId, expires_at: expiresAt })
    .execute()
}

/**
 * Marks a refresh token used in one atomic statement, only if it is unused, unexpired and its
 * session is alive: of any number of parallel calls with one token, exactly one gets a row.
 */
export async function consumeRefreshToken(db: Executor, tokenHash: Buffer) {
  const { rows } = await sql<{
    session_id: string
    user_id: string
    organization_id: string
    business_id: string | null
    session_expires_at: Date
  }>`
    UPDATE global.refresh_tokens rt SET used_at = now()
    FROM global.sessions s
    WHERE rt.token_hash = ${tokenHash} AND rt.used_at IS NULL AND rt.expires_at > now()
      AND s.id = rt.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
    RETURNING s.id AS session_id, s.user_id, s.organization_id, s.business_id, s.expires_at AS session_expires_at`.execute(
    db,
  )
  return rows[0]
}

export async function findRefreshToken(db: Executor, tokenHash: Buffer) {
  return db
    .selectFrom('global.refresh_tokens')
    .select(['session_id', 'used_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
}

export async function revokeSession(db: Executor, sessionId: string, reason: string) {
  await db
    .updateTable('global.sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

export async function revokeUserSessions(db: Executor, userId: string, reason: string) {
  await db
    .updateTable('global.sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Records a selection token as used; false when it already was (an expired record is purged first). */
export async function markSelectionTokenUsed(db: Executor, jti: string, expiresAt: Date): Promise<boolean> {
  const { rows } = await sql<{ jti: string }>`
    WITH purged AS (DELETE FROM global.used_selection_tokens WHERE expires_at < now())
    INSERT INTO global.used_selection_tokens (jti, expires_at) VALUES (${jti}, ${expiresAt})
    ON CONFLICT (jti) DO NOTHING
    RETURNING jti`.execute(db)
  return rows.length === 1
}
