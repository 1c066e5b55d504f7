import { defineModule } from '../../../platform/module.js'
import { registerPasswordRoutes } from './passwords.routes.js'

/** Forgotten and reset passwords. */
export const passwordsModule = defineModule({
  name: 'identity/passwords',
  global: {
    routes: registerPasswordRoutes,
  },
  schemaNames: {
    ForgotPassword: { body: 'ForgotPasswordRequest' },
    ResetPassword: { body: 'ResetPasswordRequest' },
  },
})
