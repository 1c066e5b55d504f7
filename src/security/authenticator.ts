import { type Kysely, sql } from 'kysely'
import type { Tables } from '../db/schema.js'
import { AppError } from '../http/errors.js'
import type { AuthContext } from './auth-context.js'
import { type BuiltInRole, intersect, type PermissionSet, ROLE_PERMISSIONS } from './permissions.js'
import type { SecretHasher } from './secrets.js'
import { TokenError, type TokenSigner } from './signing.js'

/**
 * How long a process may trust what it read about a session or membership. Logout, revocation
 * and role changes therefore reach every process within this time (the issue asks for 1 s).
 */
export const SESSION_STATE_TTL_MS = 1_000
/** `lastUsedAt` of an API key is written at most this often per process, not on every request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000
const CACHE_LIMIT = 20_000

export const authErrors = {
  missing: () =>
    new AppError(
      401,
      'missing_credential',
      'Send Authorization: Bearer <token> with X-Business-Id, or x-dispatch-api-key.',
    ),
  invalid: () => new AppError(401, 'invalid_credential', 'The credential is not valid.'),
  revoked: () => new AppError(401, 'session_ended', 'The session has ended; sign in again.'),
  business: () =>
    new AppError(
      401,
      'business_not_accessible',
      'X-Business-Id is missing or names a business this credential cannot use.',
    ),
  /** The Core API answers an expired bearer token with 403 (spec §7); the Global API with 401. */
  expired: (status: 401 | 403) =>
    new AppError(
      status,
      'token_expired',
      'The access token has expired; renew it with POST /api/auth/new-token.',
    ),
}

export function rolePermissions(
  role: string,
  customPermissions: Record<string, number> | null,
): PermissionSet {
  if (role in ROLE_PERMISSIONS) return ROLE_PERMISSIONS[role as BuiltInRole]
  return (customPermissions ?? {}) as PermissionSet
}

interface BearerState {
  revoked: boolean
  schemaName: string
  role: string
  permissions: PermissionSet
  scopes: PermissionSet | null
  businessFound: boolean
}

export class Authenticator {
  private readonly bearerStates = new Map<string, { state: BearerState | null; readAt: number }>()
  private readonly lastUsedWrites = new Map<string, number>()

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly signer: TokenSigner,
    private readonly hasher: SecretHasher,
    private readonly onBackgroundError: (error: unknown) => void = () => {},
  ) {}

  /** A bearer access token; `businessId` from X-Business-Id (null where the route needs none). */
  async bearer(token: string, businessId: string | null, expiredStatus: 401 | 403): Promise<AuthContext> {
    let claims: Awaited<ReturnType<TokenSigner['verifyAccess']>>
    try {
      claims = await this.signer.verifyAccess(token)
    } catch (error) {
      if (error instanceof TokenError && error.reason === 'expired') throw authErrors.expired(expiredStatus)
      throw authErrors.invalid()
    }
    // A handed-off session is bound to its business: it may omit X-Business-Id, never change it.
    if (claims.businessId) {
      if (businessId && businessId !== claims.businessId) throw authErrors.business()
      businessId = claims.businessId
    }
    const state = await this.bearerState(claims.sessionId, businessId)
    if (!state) throw authErrors.revoked()
    if (state.revoked) throw authErrors.revoked()
    if (businessId && !state.businessFound) throw authErrors.business()
    return {
      kind: 'user',
      userId: claims.userId,
      organizationId: claims.organizationId,
      schemaName: state.schemaName,
      businessId,
      sessionId: claims.sessionId,
      apiKeyId: null,
      role: state.role,
      isOwner: state.role === 'Owner',
      permissions: intersect(state.permissions, state.scopes),
      scopes: state.scopes,
    }
  }

  private async bearerState(sessionId: string, businessId: string | null): Promise<BearerState | null> {
    const key = `${sessionId}:${businessId ?? ''}`
    const cached = this.bearerStates.get(key)
    if (cached && Date.now() - cached.readAt < SESSION_STATE_TTL_MS) return cached.state
    const row = await this.db
      .selectFrom('global.sessions as s')
      .innerJoin('global.organizations as o', 'o.id', 's.organization_id')
      .innerJoin('global.memberships as m', (join) =>
        join
          .onRef('m.organization_id', '=', 's.organization_id')
          .onRef('m.user_id', '=', 's.user_id')
          .on('m.status', '=', 'Active'),
      )
      .leftJoin('global.roles as r', 'r.id', 'm.custom_role_id')
      .select([
        's.revoked_at',
        's.expires_at',
        's.scopes',
        'o.schema_name',
        'm.role',
        'r.permissions as custom_permissions',
        businessId
          ? sql<boolean>`EXISTS (SELECT 1 FROM global.businesses b WHERE b.id = ${businessId} AND b.organization_id = s.organization_id)`.as(
              'business_found',
            )
          : sql<boolean>`false`.as('business_found'),
      ])
      .where('s.id', '=', sessionId)
      .executeTakeFirst()
    const state: BearerState | null = row
      ? {
          revoked: row.revoked_at !== null || row.expires_at.getTime() <= Date.now(),
          schemaName: row.schema_name,
          role: row.role,
          permissions: rolePermissions(row.role, row.custom_permissions),
          scopes: row.scopes as PermissionSet | null,
          businessFound: row.business_found,
        }
      : null
    if (this.bearerStates.size >= CACHE_LIMIT) {
      const oldest = this.bearerStates.keys().next().value
      if (oldest !== undefined) this.bearerStates.delete(oldest)
    }
    this.bearerStates.set(key, { state, readAt: Date.now() })
    return state
  }

  /** An API key: read from the database on every request, so revocation stops it at once everywhere. */
  async apiKey(key: string): Promise<AuthContext> {
    const row = await this.db
      .selectFrom('global.api_keys as k')
      .innerJoin('global.organizations as o', 'o.id', 'k.organization_id')
      .innerJoin('global.memberships as m', (join) =>
        join
          .onRef('m.organization_id', '=', 'k.organization_id')
          .onRef('m.user_id', '=', 'k.created_by_user_id')
          .on('m.status', '=', 'Active'),
      )
      .leftJoin('global.roles as r', 'r.id', 'm.custom_role_id')
      .select([
        'k.id',
        'k.organization_id',
        'k.business_id',
        'k.created_by_user_id',
        'k.scopes',
        'k.expires_at',
        'k.revoked_at',
        'o.schema_name',
        'm.role',
        'r.permissions as custom_permissions',
      ])
      .where('k.key_hash', '=', this.hasher.digest(key))
      .executeTakeFirst()
    if (
      !row ||
      row.revoked_at !== null ||
      (row.expires_at !== null && row.expires_at.getTime() <= Date.now())
    ) {
      throw authErrors.invalid()
    }
    this.touch(row.id)
    // Stored as given and validated at creation; parse defensively all the same.
    let scopes: PermissionSet | null = null
    if (row.scopes?.trim()) {
      try {
        scopes = normaliseScopes(JSON.parse(row.scopes) as Record<string, number>)
      } catch {
        scopes = {}
      }
    }
    return {
      kind: 'apiKey',
      userId: row.created_by_user_id,
      organizationId: row.organization_id,
      schemaName: row.schema_name,
      businessId: row.business_id,
      sessionId: null,
      apiKeyId: row.id,
      role: row.role,
      isOwner: row.role === 'Owner',
      permissions: intersect(rolePermissions(row.role, row.custom_permissions), scopes),
      scopes,
    }
  }

  private touch(apiKeyId: string) {
    const last = this.lastUsedWrites.get(apiKeyId) ?? 0
    if (Date.now() - last < LAST_USED_WRITE_INTERVAL_MS) return
    this.lastUsedWrites.set(apiKeyId, Date.now())
    this.db
      .updateTable('global.api_keys')
      .set({ last_used_at: new Date() })
      .where('id', '=', apiKeyId)
      .execute()
      .catch(this.onBackgroundError)
  }
}

/** Scope names are matched case-insensitively at creation; the stored text may use any case. */
function normaliseScopes(raw: Record<string, number>): PermissionSet {
  const out: Record<string, number> = {}
  for (const [name, mask] of Object.entries(raw)) {
    const canonical = Object.keys(ROLE_PERMISSIONS.Owner).find((m) => m.toLowerCase() === name.toLowerCase())
    if (canonical && Number.isInteger(mask)) out[canonical] = mask & 7
  }
  return out as PermissionSet
}
