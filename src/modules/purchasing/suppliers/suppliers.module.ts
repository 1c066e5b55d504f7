import { defineModule } from '../../../platform/module.js'
import * as suppliersMigration from './migrations/20261201090000-suppliers.js'
import * as reorderSuggestionIndex from './migrations/20261201091000-reorder-suggestion-index.js'
import { registerSupplierProductRoutes } from './supplier-products.routes.js'
import { supplierEvents } from './suppliers.events.js'
import { registerSupplierRoutes } from './suppliers.routes.js'

/** Suppliers (module Suppliers): who the business buys from, and at what terms per product. */
export const suppliersModule = defineModule({
  name: 'purchasing/suppliers',
  core: {
    tags: [
      {
        name: 'Suppliers',
        description:
          'Suppliers with contacts and addresses, their terms per product, and reorder suggestions (Suppliers)',
      },
    ],
    routes(app, deps) {
      registerSupplierRoutes(app, deps)
      registerSupplierProductRoutes(app, deps)
    },
  },
  migrations: {
    tenant: [
      { name: '20261201090000-suppliers', sql: suppliersMigration.sql },
      { name: '20261201091000-reorder-suggestion-index', sql: reorderSuggestionIndex.sql },
    ],
  },
  events: supplierEvents,
})
