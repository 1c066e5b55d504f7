import type { Transaction } from 'kysely'
import { globalAndOrganisation } from '../../../db/clusters.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { FieldMap } from '../../../http/odata/index.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import type { AuthContext } from '../../../security/auth-context.js'
import {
  type Action,
  can,
  everyModule,
  isSubset,
  parseScopesText,
  readStoredScopes,
} from '../../../security/permissions.js'
import { newSecret } from '../../../security/secrets.js'
import { businessInOrganization } from '../../organisation/index.js'
import {
  apiKeyNotFound,
  keyForAnotherBusiness,
  keyScopeInsufficient,
  ownerRequired,
  scopesBeyondCredential,
} from './api-keys.errors.js'
import * as repository from './api-keys.repository.js'
import type { AccessTokenResponse, CreateApiKeyRequest } from './api-keys.schemas.js'

export const API_KEY_PREFIX = 'cak_'
/** Enough to tell keys apart in a list (prefix + 8 random characters), far too little to use one. */
const DISPLAY_PREFIX_LENGTH = 12

const FIELDS = {
  title: { column: 'label', type: 'string' },
  businessId: { column: 'business_id', type: 'uuid' },
  dateCreated: { column: 'date_created', type: 'datetime' },
  expiryDate: { column: 'expires_at', type: 'datetime' },
  lastUsedAt: { column: 'last_used_at', type: 'datetime' },
} as const satisfies FieldMap

const LIST: ListSpec = {
  fields: FIELDS,
  search: ['label', 'key_prefix'],
  defaultOrder: [{ column: 'date_created', direction: 'desc' }],
  tiebreak: 'id',
}

/**
 * A credential with scopes (a key handed to a plug-in, say) manages keys only when its scopes grant
 * TeamAndRoles Modify (create) or Delete (revoke): one leaked narrow key must not take every other
 * integration down. Unrestricted credentials are limited by the owner rule alone.
 */
function requireKeyManagement(auth: AuthContext, action: Action) {
  if (auth.scopes !== null && !can(auth.scopes, 'TeamAndRoles', action)) throw keyScopeInsufficient(action)
}

type KeyRow = Awaited<ReturnType<typeof repository.insertApiKey>>

function toResponse(row: KeyRow, token: string | null = null): AccessTokenResponse {
  const scopes = readStoredScopes(row.scopes)
  return {
    id: row.id,
    token,
    expiryDate: row.expires_at?.toISOString() ?? null,
    title: row.label,
    scopes: row.scopes,
    scopesByModule: scopes === null ? null : everyModule(scopes),
    dateCreated: row.date_created.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    businessId: row.business_id,
    keyPrefix: row.key_prefix,
  }
}

/** The organisation's unrevoked keys (expired ones included, so an owner sees them lapse), newest first. */
export async function listApiKeys(database: Database, auth: AuthContext, query: ListQuery) {
  const { rows, total, page } = await runList(
    repository.activeKeys(database.db, auth.organizationId),
    query,
    LIST,
  )
  return paged(
    'global',
    rows.map((row) => toResponse(row)),
    total,
    page,
  )
}

/**
 * Creates a key bound to one business; only a person gets here (the route refuses API keys). A
 * session never mints more than it holds: one bound to a business (from a one-time token) only
 * creates keys for that business, and one with scopes (only hand-offs that keys made before they
 * were refused carried any) only creates keys whose scopes are within them.
 */
export async function createApiKey(
  { database, services }: AppDeps,
  auth: AuthContext,
  request: CreateApiKeyRequest,
): Promise<AccessTokenResponse> {
  if (!auth.isOwner) throw ownerRequired()
  requireKeyManagement(auth, 'Modify')
  const reasons: Reason[] = []
  const parsed = parseScopesText('scopes', request.scopes)
  reasons.push(...parsed.reasons)
  if (!(await businessInOrganization(database.db, request.businessId, auth.organizationId))) {
    reasons.push({ field: 'businessId', message: 'must be a business of your organisation' })
  }
  if (reasons.length > 0) throw validationFailed(reasons)
  const scopes = parsed.scopes ?? null
  if (auth.businessId && auth.businessId !== request.businessId) {
    throw keyForAnotherBusiness()
  }
  if (auth.scopes !== null && (scopes === null || !isSubset(scopes, auth.scopes))) {
    throw scopesBeyondCredential()
  }
  const token = newSecret(API_KEY_PREFIX)
  const row = await globalAndOrganisation(database, auth.schemaName, async (trx, organisation) => {
    const inserted = await repository.insertApiKey(trx, {
      id: newId(),
      organizationId: auth.organizationId,
      businessId: request.businessId,
      createdByUserId: auth.userId,
      label: request.label ?? null,
      keyHash: services.hasher.digest(token),
      keyPrefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
      scopes: request.scopes ?? null,
      expiresAt:
        request.ttlMinutes === undefined || request.ttlMinutes === null
          ? null
          : new Date(Date.now() + request.ttlMinutes * 60_000),
    })
    await publishApiKeyEvent(services.events, organisation, auth, 'ApiKeyCreated', inserted)
    return inserted
  })
  return toResponse(row, token)
}

/** Revokes at once (the authenticator reads keys on every request). Idempotent; another organisation's key is a 404. */
export async function revokeApiKey(
  { database, services }: AppDeps,
  auth: AuthContext,
  id: string,
): Promise<boolean> {
  if (!auth.isOwner) throw ownerRequired()
  requireKeyManagement(auth, 'Delete')
  await globalAndOrganisation(database, auth.schemaName, async (trx, organisation) => {
    const revoked = await repository.revokeApiKey(trx, id, auth.organizationId)
    if (!revoked) throw apiKeyNotFound()
    await publishApiKeyEvent(services.events, organisation, auth, 'ApiKeyRevoked', revoked)
  })
  return true
}

/** Tells the key's business (its users get a notification), in the same transaction as the change. */
async function publishApiKeyEvent(
  events: DomainEventPublisher,
  trx: Transaction<Tables>,
  auth: AuthContext,
  type: 'ApiKeyCreated' | 'ApiKeyRevoked',
  key: { id: string; business_id: string; label: string | null; key_prefix: string },
) {
  await events.publish(trx, auth.schemaName, {
    type,
    businessId: key.business_id,
    userId: auth.userId,
    payload: { apiKeyId: key.id, label: key.label, keyPrefix: key.key_prefix },
  })
}
