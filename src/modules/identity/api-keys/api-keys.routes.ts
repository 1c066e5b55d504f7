import { Type } from '@sinclair/typebox'
import { authOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { AccessTokenResponse, ApiKeyIdParams, CreateApiKeyRequest } from './api-keys.schemas.js'
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js'

const TAGS = ['Auth']

export function registerApiKeyRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/auth/tokens',
    operation(
      { signedIn: true, business: false },
      {
        api: 'global',
        operationId: 'GetAccessTokens',
        summary: 'List the API keys of the caller’s organisation',
        description:
          'Any signed-in member. Newest first; revoked keys are not listed, expired ones are (see expiryDate). ' +
          '`token` is always null here: a key value is shown once, at creation. ' +
          '$filter/$orderby fields: title, businessId, dateCreated, expiryDate, lastUsedAt; $search matches title and keyPrefix.',
        tags: TAGS,
        querystring: ListQuery,
        response: PagedResult('global', AccessTokenResponse),
        errors: [400],
      },
    ),
    async (request) => listApiKeys(deps.database, authOf(request), request.query),
  )

  app.post(
    '/api/auth/tokens',
    operation(
      {
        signedIn: true,
        business: false,
        personOnly:
          'An API key cannot create API keys: an owner creates them, signed in, so every key is a person’s decision and none outlives the key that would have made it.',
      },
      {
        api: 'global',
        operationId: 'CreateApiToken',
        summary: 'Create an API key (owners only); the value is in data.token, shown this one time',
        description:
          'Owners only (403 owner_required), signed in. Send the key as `x-dispatch-api-key`; it acts for `businessId` (400 if that is not a business of the organisation) with the owner’s rights limited by `scopes`. ' +
          'Only an HMAC digest of the key is stored, so it cannot be shown again. Without `ttlMinutes` it never expires. ' +
          'A session never mints more than it holds (403 scope_escalation): a session from a one-time token creates keys only for its own business and, if it has scopes, only with scopes within them (an unrestricted key from a scoped session is an escalation).',
        tags: TAGS,
        body: CreateApiKeyRequest,
        response: SingleResult('global', AccessTokenResponse),
        errors: [400, 403],
      },
    ),
    async (request) => single('global', await createApiKey(deps, authOf(request), request.body)),
  )

  app.delete(
    '/api/auth/tokens/:id',
    operation(
      { signedIn: true, business: false },
      {
        api: 'global',
        operationId: 'RevokeAccessToken',
        summary: 'Revoke an API key (owners only); it stops at once, on every process',
        description:
          'Owners only (403 owner_required). Keys are checked against the database on every request, so the next request with a revoked key gets 401. ' +
          'Revoking an already revoked key answers true again; an unknown id or another organisation’s key is a 404.',
        tags: TAGS,
        params: ApiKeyIdParams,
        response: SingleResult('global', Type.Boolean()),
        errors: [400, 403, 404],
      },
    ),
    async (request) => single('global', await revokeApiKey(deps, authOf(request), request.params.id)),
  )
}
