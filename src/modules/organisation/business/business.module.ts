import { defineModule } from '../../../platform/module.js'
import { registerBusinessRoutes } from './business.routes.js'

/** Businesses of the organisation and their hierarchy (Settings). */
export const businessModule = defineModule({
  name: 'organisation/business',
  core: {
    tags: [
      { name: 'Business', description: 'Businesses of the organisation and their hierarchy (Settings)' },
    ],
    routes: registerBusinessRoutes,
  },
  schemaNames: {
    GetBusiness: { data: 'BusinessResponse' },
    GetMetadataForBusiness: { data: 'BusinessDefaultSettings' },
    CreateBusiness: { body: 'CreateBusinessRequest', data: 'BusinessResponse' },
    UpdateBusiness: { body: 'UpdateBusinessCommand', data: 'BusinessResponse' },
    GetBusinessChildren: { data: 'BusinessResponse' },
  },
})
