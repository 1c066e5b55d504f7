import { defineModule } from '../../../platform/module.js'
import { registerAddressRoutes } from './address.routes.js'

/** Address from free text: an offline parser and gazetteer, or a configured geocoder. */
export const addressModule = defineModule({
  name: 'geo/address',
  core: {
    tags: [
      { name: 'Address', description: 'Address from free text: offline parser and gazetteer, or a geocoder' },
    ],
    routes: registerAddressRoutes,
  },
})
