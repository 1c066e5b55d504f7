import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { carrierEvents } from './carriers.events.js'
import { registerCarrierRoutes } from './carriers.routes.js'

/** Carriers: the catalogue, configured carriers with encrypted credentials, fulfilment contacts. */
export const carriersModule = defineModule({
  name: 'delivery/carriers',
  core: {
    tags: [
      {
        name: 'Carriers',
        description:
          "Carriers: the catalogue, the business's configured carriers and fulfilment contacts (Integrations)",
      },
    ],
    routes: registerCarrierRoutes,
  },
  schemaNames: returning('FulfillmentProviderResponse', [
    'GetCarriers',
    'ConfigureCarrier',
    'GetFulfillmentProvider',
    'UpdateCarrier',
    'DeleteConfiguredCarrier',
  ]),
  events: carrierEvents,
})
