import { defineModule } from '../../../platform/module.js'
import * as organisationCluster from './migrations/20261229090000-organisation-cluster.js'
import { registerRegistrationRoutes } from './registration.routes.js'

/** Registration of a new organisation with its first business and owner. */
export const registrationModule = defineModule({
  name: 'identity/registration',
  global: {
    tags: [{ name: 'Organizations', description: 'Organisation registration' }],
    routes: registerRegistrationRoutes,
  },
  migrations: { global: [{ name: '20261229090000-organisation-cluster', sql: organisationCluster.sql }] },
  schemaNames: {
    RegisterOrganization: {
      body: 'RegisterOrganizationRequest',
      data: 'RegisterOrganizationBusinessResponse',
    },
  },
})
