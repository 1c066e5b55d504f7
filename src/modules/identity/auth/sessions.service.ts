import type { Static } from '@sinclair/typebox'
import { newId } from '../../../db/ids.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { AuthContext } from '../../../security/auth-context.js'
import { LoginThrottle } from '../../../security/login-throttle.js'
import { hashPassword, verifyPassword } from '../../../security/passwords.js'
import type { PermissionSet } from '../../../security/permissions.js'
import { newSecret } from '../../../security/secrets.js'
import { TokenError } from '../../../security/signing.js'
import {
  invalidCredentials,
  noActiveMembership,
  notAMember,
  refreshTokenRejected,
  selectionTokenExpired,
  selectionTokenInvalid,
  selectionTokenMissing,
  selectionTokenUsed,
} from './auth.errors.js'
import type { LoginResponse, SessionResponse } from './auth.schemas.js'
import * as repository from './sessions.repository.js'

/** A sign-in lives at most this long, however often it is renewed. */
const SESSION_MAX_SECONDS = 90 * 24 * 3600
const SELECTION_TTL_SECONDS = 5 * 60
export const REFRESH_TOKEN_PREFIX = 'crt_'

export interface IssuedSession {
  session: Static<typeof SessionResponse>
  refreshToken: string
  refreshExpiresAt: Date
}

// Unknown emails are verified against this hash, so they cost the same time as wrong passwords.
let dummyHash: Promise<string> | undefined
const timingDummy = () => {
  dummyHash ??= hashPassword('cartage-timing-equaliser-password')
  return dummyHash
}

/** Starts a session (a refresh-token family) and signs its first access token. */
export async function issueSession(
  deps: AppDeps,
  userId: string,
  organization: { id: string; slug: string; name: string },
  options: { businessId?: string | null; scopes?: PermissionSet | null } = {},
): Promise<IssuedSession> {
  const sessionId = newId()
  const expiresAt = new Date(Date.now() + SESSION_MAX_SECONDS * 1000)
  await repository.insertSession(deps.database.db, {
    id: sessionId,
    userId,
    organizationId: organization.id,
    businessId: options.businessId ?? null,
    scopes: (options.scopes as Record<string, number> | null | undefined) ?? null,
    expiresAt,
  })
  return signForSession(deps, {
    sessionId,
    userId,
    organization,
    businessId: options.businessId ?? null,
    sessionExpiresAt: expiresAt,
  })
}

async function signForSession(
  { database, services, config }: AppDeps,
  s: {
    sessionId: string
    userId: string
    organization: { id: string; slug: string; name: string }
    businessId: string | null
    sessionExpiresAt: Date
  },
): Promise<IssuedSession> {
  const refreshToken = newSecret(REFRESH_TOKEN_PREFIX)
  const refreshExpiresAt = new Date(
    Math.min(Date.now() + config.refreshTokenTtlSeconds * 1000, s.sessionExpiresAt.getTime()),
  )
  await repository.insertRefreshToken(
    database.db,
    s.sessionId,
    services.hasher.digest(refreshToken),
    refreshExpiresAt,
  )
  const access = await services.signer.signAccess({
    userId: s.userId,
    sessionId: s.sessionId,
    organizationId: s.organization.id,
    businessId: s.businessId,
  })
  return {
    session: {
      accessToken: access.token,
      expiresAtUtc: access.expiresAt.toISOString(),
      organization: { id: s.organization.id, slug: s.organization.slug, name: s.organization.name },
      businessId: s.businessId,
    },
    refreshToken,
    refreshExpiresAt,
  }
}

export async function login(
  deps: AppDeps,
  email: string,
  password: string,
  ip: string,
): Promise<{ response: Static<typeof LoginResponse>; issued?: IssuedSession }> {
  const { database, services, config } = deps
  await services.rateLimiter.hit(`login:ip:${ip}`, config.rateLimitPerIp, 60)
  const throttle = new LoginThrottle(services.rateLimiter, config.rateLimitPerAccount)
  await throttle.admit(email, ip)
  const user = await repository.findUserByEmail(database.db, email)
  // Checked in the account's turn: a flood on one account waits behind itself, not others.
  const passwordIsRight = await services.passwordWork.run(email, async () =>
    user?.password_hash
      ? verifyPassword(user.password_hash, password)
      : verifyPassword(await timingDummy(), password).then(() => false),
  )
  if (!user || !passwordIsRight) {
    await throttle.failed(email, ip)
    throw invalidCredentials()
  }
  await throttle.succeeded(email, ip)
  const memberships = await repository.activeMemberships(database.db, user.id)
  const [only] = memberships
  if (!only) throw noActiveMembership()
  if (memberships.length === 1) {
    const issued = await issueSession(deps, user.id, only)
    return {
      response: {
        requiresOrganizationSelection: false,
        session: issued.session,
        selectionToken: null,
        selectionExpiresAtUtc: null,
        organizations: null,
      },
      issued,
    }
  }
  const selection = await services.signer.signSelection(user.id, SELECTION_TTL_SECONDS)
  return {
    response: {
      requiresOrganizationSelection: true,
      session: null,
      selectionToken: selection.token,
      selectionExpiresAtUtc: selection.expiresAt.toISOString(),
      organizations: memberships.map((m) => ({
        id: m.id,
        slug: m.slug,
        name: m.name,
        isOwner: m.role === 'Owner',
      })),
    },
  }
}

export async function selectOrganization(
  deps: AppDeps,
  selectionToken: string | undefined,
  organizationId: string,
): Promise<IssuedSession> {
  if (!selectionToken) throw selectionTokenMissing()
  let claims: { userId: string; jti: string; expiresAt: Date }
  try {
    claims = await deps.services.signer.verifySelection(selectionToken)
  } catch (error) {
    const expired = error instanceof TokenError && error.reason === 'expired'
    throw expired ? selectionTokenExpired() : selectionTokenInvalid()
  }
  const { userId } = claims
  const membership = (await repository.activeMemberships(deps.database.db, userId)).find(
    (m) => m.id === organizationId,
  )
  if (!membership) throw notAMember()
  // Single use, decided by one atomic insert: of two parallel selections only one gets a session.
  if (!(await repository.markSelectionTokenUsed(deps.database.db, claims.jti, claims.expiresAt)))
    throw selectionTokenUsed()
  return issueSession(deps, userId, membership)
}

/** Rotates the refresh token: single use; replaying a used one ends its whole session. */
export async function refresh(deps: AppDeps, refreshToken: string | undefined): Promise<IssuedSession> {
  if (!refreshToken) throw refreshTokenRejected()
  const { database, services } = deps
  const hash = services.hasher.digest(refreshToken)
  const consumed = await repository.consumeRefreshToken(database.db, hash)
  if (!consumed) {
    const known = await repository.findRefreshToken(database.db, hash)
    if (known?.used_at) await repository.revokeSession(database.db, known.session_id, 'refresh_token_reuse')
    throw refreshTokenRejected()
  }
  const organization = await repository.findOrganization(database.db, consumed.organization_id)
  if (!organization) throw refreshTokenRejected()
  return signForSession(deps, {
    sessionId: consumed.session_id,
    userId: consumed.user_id,
    organization,
    businessId: consumed.business_id,
    sessionExpiresAt: consumed.session_expires_at,
  })
}

/** Ends the caller's session (and the one behind the refresh cookie, if sent). API keys have none. */
export async function logout(
  deps: AppDeps,
  auth: AuthContext,
  refreshToken: string | undefined,
): Promise<boolean> {
  const { database, services } = deps
  if (auth.sessionId) await repository.revokeSession(database.db, auth.sessionId, 'logout')
  if (refreshToken) {
    const known = await repository.findRefreshToken(database.db, services.hasher.digest(refreshToken))
    if (known) await repository.revokeSession(database.db, known.session_id, 'logout')
  }
  return true
}
