import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { AuthContext } from '../../../security/auth-context.js'
import type { PermissionSet } from '../../../security/permissions.js'
import { newSecret } from '../../../security/secrets.js'
import { businessInOrganization } from '../../organisation/index.js'
import { type IssuedSession, issueSession } from '../auth/index.js'
import { businessNotAccessible, invalidOneTimeToken } from './one-time-tokens.errors.js'
import * as repository from './one-time-tokens.repository.js'
import type { MintOneTimeTokenRequest, OneTimeTokenResponse } from './one-time-tokens.schemas.js'

export const ONE_TIME_TOKEN_PREFIX = 'cot_'
const ONE_TIME_TOKEN_TTL_MS = 60_000

/**
 * Mints a single-use token for the caller's session in one business. It carries the caller's
 * scopes, so the redeemed session never has more rights than the one that minted it.
 */
export async function mintOneTimeToken(
  { database, services }: AppDeps,
  auth: AuthContext,
  request: MintOneTimeTokenRequest,
): Promise<OneTimeTokenResponse> {
  const targetApp = request.targetApp.trim()
  if (!targetApp) throw invalidField('targetApp', 'must not be blank')
  // A handed-off session is bound to its business and cannot reach another (keys never get here).
  if (auth.businessId && auth.businessId !== request.businessId) throw businessNotAccessible()
  if (!(await businessInOrganization(database.db, request.businessId, auth.organizationId))) {
    throw businessNotAccessible()
  }
  const token = newSecret(ONE_TIME_TOKEN_PREFIX)
  const expiresAt = new Date(Date.now() + ONE_TIME_TOKEN_TTL_MS)
  await repository.insertOneTimeToken(database.db, {
    tokenHash: services.hasher.digest(token),
    userId: auth.userId,
    organizationId: auth.organizationId,
    businessId: request.businessId,
    targetApp,
    scopes: auth.scopes,
    expiresAt,
  })
  return { token, expiresAt: expiresAt.toISOString() }
}

/** Exchanges a one-time token for a session bound to its business; works once, within 60 seconds. */
export async function redeemOneTimeToken(deps: AppDeps, token: string, ip: string): Promise<IssuedSession> {
  const { database, services, config } = deps
  await services.rateLimiter.hit(`ott:ip:${ip}`, config.rateLimitPerIp, 60)
  const consumed = await repository.consumeOneTimeToken(database.db, services.hasher.digest(token))
  if (!consumed) throw invalidOneTimeToken()
  return issueSession(
    deps,
    consumed.user_id,
    { id: consumed.organization_id, slug: consumed.slug, name: consumed.name },
    { businessId: consumed.business_id, scopes: consumed.scopes as PermissionSet | null },
  )
}
