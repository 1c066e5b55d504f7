import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'
import type { PermissionSet } from '../../../security/permissions.js'

export interface NewOneTimeToken {
  tokenHash: Buffer
  userId: string
  organizationId: string
  businessId: string
  targetApp: string
  scopes: PermissionSet | null
  expiresAt: Date
}

export async function insertOneTimeToken(db: Executor, token: NewOneTimeToken) {
  await db
    .insertInto('global.one_time_tokens')
    .values({
      token_hash: token.tokenHash,
      user_id: token.userId,
      organization_id: token.organizationId,
      business_id: token.businessId,
      target_app: token.targetApp,
      scopes: token.scopes === null ? null : JSON.stringify(token.scopes),
      expires_at: token.expiresAt,
    })
    .execute()
}

/**
 * Marks the token used in one atomic statement, only if unused, unexpired and its user is still an
 * active member: of any number of parallel redemptions, exactly one gets a row.
 */
export async function consumeOneTimeToken(db: Executor, tokenHash: Buffer) {
  const { rows } = await sql<{
    user_id: string
    organization_id: string
    business_id: string
    scopes: Record<string, number> | null
    slug: string
    name: string
  }>`
    UPDATE global.one_time_tokens t SET used_at = now()
    FROM global.organizations o
    WHERE t.token_hash = ${tokenHash} AND t.used_at IS NULL AND t.expires_at > now()
      AND o.id = t.organization_id
      AND EXISTS (SELECT 1 FROM global.memberships m
                  WHERE m.organization_id = t.organization_id AND m.user_id = t.user_id AND m.status = 'Active')
    RETURNING t.user_id, t.organization_id, t.business_id, t.scopes, o.slug, o.name`.execute(db)
  return rows[0]
}
