import { defineModule } from '../../../platform/module.js'
import { registerOneTimeTokenRoutes } from './one-time-tokens.routes.js'

/** One-time hand-off tokens: single use, 60 seconds. */
export const oneTimeTokensModule = defineModule({
  name: 'identity/one-time-tokens',
  global: {
    routes: registerOneTimeTokenRoutes,
  },
  schemaNames: {
    MintOneTimeToken: { body: 'MintOneTimeTokenRequest', data: 'OneTimeTokenResponse' },
    RedeemOneTimeToken: { body: 'RedeemOneTimeTokenRequest', data: 'SessionResponse' },
  },
})
