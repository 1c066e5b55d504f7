import { defineModule } from '../../../platform/module.js'
import { apiKeyEvents } from './api-keys.events.js'
import { registerApiKeyRoutes } from './api-keys.routes.js'
import * as revokeKeysMadeByKeys from './migrations/20261202090100-revoke-keys-made-by-keys.js'

/** API keys: created, listed and revoked by the owner; the value is shown once. */
export const apiKeysModule = defineModule({
  name: 'identity/api-keys',
  global: {
    routes: registerApiKeyRoutes,
  },
  migrations: {
    tenant: [{ name: '20261202090100-revoke-keys-made-by-keys', sql: revokeKeysMadeByKeys.sql }],
  },
  schemaNames: {
    GetAccessTokens: { data: 'AccessTokenResponse' },
    CreateApiToken: { body: 'CreateApiKeyRequest', data: 'AccessTokenResponse' },
  },
  events: apiKeyEvents,
})
