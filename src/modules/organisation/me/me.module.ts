import { defineModule } from '../../../platform/module.js'
import { registerMeRoutes } from './me.routes.js'

/** The caller: who they are, their organisation, businesses and rights. */
export const meModule = defineModule({
  name: 'organisation/me',
  core: {
    tags: [{ name: 'Me', description: 'The caller and their rights' }],
    routes: registerMeRoutes,
  },
  schemaNames: {
    GetMe: { data: 'MeResponse' },
  },
})
