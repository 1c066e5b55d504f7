import { defineModule } from '../../../platform/module.js'
import * as endHandedOffSessions from './migrations/20261202090000-end-handed-off-sessions.js'
import { registerOneTimeTokenRoutes } from './one-time-tokens.routes.js'

/** One-time hand-off tokens: single use, 60 seconds. */
export const oneTimeTokensModule = defineModule({
  name: 'identity/one-time-tokens',
  global: {
    routes: registerOneTimeTokenRoutes,
  },
  migrations: {
    global: [{ name: '20261202090000-end-handed-off-sessions', sql: endHandedOffSessions.sql }],
  },
  schemaNames: {
    MintOneTimeToken: { body: 'MintOneTimeTokenRequest', data: 'OneTimeTokenResponse' },
    RedeemOneTimeToken: { body: 'RedeemOneTimeTokenRequest', data: 'SessionResponse' },
  },
})
