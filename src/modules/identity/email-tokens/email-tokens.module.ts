import { defineModule } from '../../../platform/module.js'
import { registerEmailVerificationRoutes } from './email-verification.routes.js'

/** E-mail verification by token. */
export const emailTokensModule = defineModule({
  name: 'identity/email-tokens',
  global: {
    routes: registerEmailVerificationRoutes,
  },
})
