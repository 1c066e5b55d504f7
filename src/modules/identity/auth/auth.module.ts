import { defineModule } from '../../../platform/module.js'
import { registerAuthRoutes } from './auth.routes.js'

/** Sign-in, organisation selection, token refresh, sign-out and the public signing keys. */
export const authModule = defineModule({
  name: 'identity/auth',
  global: {
    tags: [{ name: 'Auth', description: 'Sign-in, sessions, one-time tokens and API keys' }],
    routes: registerAuthRoutes,
  },
  schemaNames: {
    Login: { body: 'AuthenticateRequest', data: 'LoginResponse' },
    SelectOrganization: { body: 'SelectOrganizationRequest', data: 'SessionResponse' },
    NewToken: { data: 'SessionResponse' },
    GetJwks: { data: 'JsonWebKeySet' },
  },
})
