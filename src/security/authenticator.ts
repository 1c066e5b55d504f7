import { type Kysely, sql } from 'kysely'
import type { ChangeListener } from '../db/change-listener.js'
import type { Tables } from '../db/tables.js'
import { AppError } from '../errors.js'
import type { AuthContext } from './auth-context.js'
import {
  type BuiltInRole,
  intersect,
  type PermissionSet,
  ROLE_PERMISSIONS,
  readStoredScopes,
} from './permissions.js'
import type { SecretHasher } from './secrets.js'
import { type AccessClaims, TokenError, type TokenSigner } from './signing.js'

/**
 * How long a process may trust what it read about a session or membership when it has no live
 * change listener (the embedded database). Logout, revocation and role changes therefore reach
 * every process within this time; with a live listener they reach it on commit.
 */
export const SESSION_STATE_TTL_MS = 1_000
/** `lastUsedAt` of an API key is written at most this often per process, not on every request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000
const CACHE_LIMIT = 20_000
/** Notified on commit of any change to a key's rights (global migration notify-credential-changes). */
export const CREDENTIAL_CHANNEL = 'cartage_credentials'

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
  /** An API key where only a person may act; `why` is the message, saying why. */
  personOnly: (why: string) => new AppError(403, 'api_key_not_allowed', why),
  /** The Core API answers an expired bearer token with 403; the Global API with 401. */
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
  /** The session's end (ms): checked on every use, so a state trusted for long still expires. */
  expiresAt: number
  schemaName: string
  role: string
  /** The role's rights within the session's scopes. */
  permissions: PermissionSet
  scopes: PermissionSet | null
  businessFound: boolean
}

export class Authenticator {
  /** `untilChanged`: read while the listener was live, so trusted until it reports a change. */
  private readonly bearerStates = new Map<
    string,
    { state: BearerState | null; readAt: number; untilChanged: boolean }
  >()
  private readonly lastUsedWrites = new Map<string, number>()
  /** Keyed by the key as sent: a hit skips the HMAC too. Only valid keys are stored. */
  private readonly apiKeys = new Map<string, { context: AuthContext; expiresAt: number | null }>()

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly signer: TokenSigner,
    private readonly hasher: SecretHasher,
    private readonly onBackgroundError: (error: unknown) => void = () => {},
    private readonly credentialChanges?: ChangeListener,
  ) {
    credentialChanges?.subscribe(() => {
      this.apiKeys.clear()
      this.bearerStates.clear()
    })
  }

  /**
   * What a caller of `cachedBearer` or `cachedApiKey` waits for first: while the change feed is
   * live, the end of the event loop's current turn (one timer shared by every request in it), so a
   * notification that arrived before the request was read has emptied the caches. Undefined when
   * nothing needs waiting for.
   */
  beforeTrustingCaches(): Promise<void> | undefined {
    const feed = this.credentialChanges
    feed?.start()
    return feed?.live ? feed.settle() : undefined
  }

  /**
   * `bearer` from what this process verified and read before, with no promise, or undefined when
   * the token must be verified or the session read (then `bearer`). Throws what `bearer` throws
   * for a session known to be ended. Call after `beforeTrustingCaches` has resolved.
   */
  cachedBearer(token: string, businessId: string | null): AuthContext | undefined {
    const claims = this.signer.verifiedAccess(token)
    if (!claims) return undefined
    const inBusiness = this.boundBusiness(claims, businessId)
    const cached = this.bearerStates.get(`${claims.sessionId}:${inBusiness ?? ''}`)
    if (!cached || !this.trusted(cached)) return undefined
    return bearerContext(claims, inBusiness, cached.state)
  }

  /** A bearer access token; `businessId` from X-Business-Id (null where the route needs none). */
  async bearer(token: string, businessId: string | null, expiredStatus: 401 | 403): Promise<AuthContext> {
    // A token verified before costs a map lookup; only a new one (or new keys) waits on a promise.
    const claims = this.signer.verifiedAccess(token) ?? (await this.verifyBearer(token, expiredStatus))
    const inBusiness = this.boundBusiness(claims, businessId)
    return bearerContext(claims, inBusiness, await this.bearerState(claims.sessionId, inBusiness))
  }

  /** A handed-off session is bound to its business: it may omit X-Business-Id, never change it. */
  private boundBusiness(claims: AccessClaims, businessId: string | null): string | null {
    if (!claims.businessId) return businessId
    if (businessId && businessId !== claims.businessId) throw authErrors.business()
    return claims.businessId
  }

  /** A cached session state may be used: trusted until a change on a live feed, or still young. */
  private trusted(cached: { readAt: number; untilChanged: boolean }): boolean {
    return (
      (cached.untilChanged && this.credentialChanges?.live === true) ||
      Date.now() - cached.readAt < SESSION_STATE_TTL_MS
    )
  }

  private async verifyBearer(token: string, expiredStatus: 401 | 403) {
    try {
      return await this.signer.verifyAccess(token)
    } catch (error) {
      if (error instanceof TokenError && error.reason === 'expired') throw authErrors.expired(expiredStatus)
      if (error instanceof TokenError) throw authErrors.invalid()
      // Not the token's fault (the keys could not be read): the error handler says what it was.
      throw error
    }
  }

  private async bearerState(sessionId: string, businessId: string | null): Promise<BearerState | null> {
    const key = `${sessionId}:${businessId ?? ''}`
    const feed = this.credentialChanges
    feed?.start()
    // As for API keys: a notification already on its way in is read before the cache is trusted.
    if (feed?.live && this.bearerStates.get(key)?.untilChanged) await feed.settle()
    const cached = this.bearerStates.get(key)
    if (cached && this.trusted(cached)) return cached.state
    const generation = feed?.generation
    const live = feed?.live === true
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
          revoked: row.revoked_at !== null,
          expiresAt: row.expires_at.getTime(),
          schemaName: row.schema_name,
          role: row.role,
          // Intersected once here, not on every request that finds the state cached.
          permissions: intersect(
            rolePermissions(row.role, row.custom_permissions),
            row.scopes as PermissionSet | null,
          ),
          scopes: row.scopes as PermissionSet | null,
          businessFound: row.business_found,
        }
      : null
    if (this.bearerStates.size >= CACHE_LIMIT) {
      const oldest = this.bearerStates.keys().next().value
      if (oldest !== undefined) this.bearerStates.delete(oldest)
    }
    // Trusted until a change only if nothing changed (and the listener stayed up) during the read.
    const untilChanged = feed !== undefined && live && feed.live && feed.generation === generation
    this.bearerStates.set(key, { state, readAt: Date.now(), untilChanged })
    return state
  }

  /**
   * An API key. What a key may do is cached per process while `credentialChanges` is live: every
   * change that can narrow or end a key's rights notifies on commit (global migration
   * notify-credential-changes) and empties the cache in every process, so revocation still stops
   * a key at once everywhere. Without a live listener each request reads the database.
   */
  async apiKey(key: string): Promise<AuthContext> {
    const feed = this.credentialChanges
    feed?.start()
    // A notification already on its way in is read before the cache is trusted: one turn of the
    // event loop's I/O phase (microseconds) instead of a database round trip.
    if (feed?.live && this.apiKeys.has(key)) await feed.settle()
    const cached = this.cachedApiKey(key)
    if (cached) return cached
    const generation = feed?.generation
    const live = feed?.live === true
    const row = await this.readApiKey(key)
    if (
      !row ||
      row.revoked_at !== null ||
      (row.expires_at !== null && row.expires_at.getTime() <= Date.now())
    ) {
      throw authErrors.invalid()
    }
    this.touch(row.id)
    const context = apiKeyContext(row)
    // Stored only if nothing changed (and the listener stayed up) while the row was read.
    if (feed && live && feed.live && feed.generation === generation) {
      if (this.apiKeys.size >= CACHE_LIMIT) {
        const oldest = this.apiKeys.keys().next().value
        if (oldest !== undefined) this.apiKeys.delete(oldest)
      }
      this.apiKeys.set(key, { context, expiresAt: row.expires_at?.getTime() ?? null })
    }
    return { ...context }
  }

  /**
   * `apiKey` from this process's cache, with no promise, or undefined when the key must be read
   * (then `apiKey`). Call after `beforeTrustingCaches` has resolved.
   */
  cachedApiKey(key: string): AuthContext | undefined {
    const cached = this.credentialChanges?.live ? this.apiKeys.get(key) : undefined
    if (!cached) return undefined
    if (cached.expiresAt !== null && cached.expiresAt <= Date.now()) {
      this.apiKeys.delete(key)
      throw authErrors.invalid()
    }
    this.touch(cached.context.apiKeyId ?? '')
    return { ...cached.context }
  }

  /** How many session states this process trusts until a change is reported (tests, metrics). */
  get trustedBearerStates(): number {
    if (!this.credentialChanges?.live) return 0
    let trusted = 0
    for (const entry of this.bearerStates.values()) if (entry.untilChanged) trusted++
    return trusted
  }

  /** How many keys this process trusts without reading the database (tests, metrics). */
  get cachedApiKeys(): number {
    return this.credentialChanges?.live ? this.apiKeys.size : 0
  }

  private async readApiKey(key: string) {
    return this.db
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

interface ApiKeyRow {
  id: string
  organization_id: string
  business_id: string
  created_by_user_id: string
  scopes: string | null
  schema_name: string
  role: string
  custom_permissions: Record<string, number> | null
}

function apiKeyContext(row: ApiKeyRow): AuthContext {
  const scopes = readStoredScopes(row.scopes)
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

/** The context of a signed-in person's request, or the refusal its session state calls for. */
function bearerContext(
  claims: AccessClaims,
  businessId: string | null,
  state: BearerState | null,
): AuthContext {
  if (!state || state.revoked || state.expiresAt <= Date.now()) throw authErrors.revoked()
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
    permissions: state.permissions,
    scopes: state.scopes,
  }
}
