import { defineModule } from '../../../platform/module.js'
import { registerDocumentRoutes } from './documents.routes.js'

/** Printable documents of deliveries: delivery notes, route sheets and pick lists (PDF). */
export const documentsModule = defineModule({
  name: 'delivery/documents',
  core: {
    tags: [
      {
        name: 'Documents',
        description:
          'Printable documents (PDF): delivery notes, route sheets, pick lists, purchase orders (Shipments, PurchaseOrders)',
      },
    ],
    routes: registerDocumentRoutes,
  },
})
