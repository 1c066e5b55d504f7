import { defineModule } from '../../../platform/module.js'
import { registerRegistrationRoutes } from './registration.routes.js'

/** Registration of a new organisation with its first business and owner. */
export const registrationModule = defineModule({
  name: 'identity/registration',
  global: {
    tags: [{ name: 'Organizations', description: 'Organisation registration' }],
    routes: registerRegistrationRoutes,
  },
  schemaNames: {
    RegisterOrganization: {
      body: 'RegisterOrganizationRequest',
      data: 'RegisterOrganizationBusinessResponse',
    },
  },
})
