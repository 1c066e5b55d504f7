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
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    suppliers: {
      source: 'suppliers',
      filter: 'deleted_at IS NULL',
      columns: [
        'id',
        'code',
        'name',
        'email',
        'phone_number',
        'currency',
        'payment_terms',
        'lead_time_days',
        'tax_number',
        'is_active',
        'date_created',
      ],
    },
    supplier_products: {
      source: 'supplier_products',
      filter: 'TRUE',
      columns: [
        'id',
        'supplier_id',
        'product_id',
        'supplier_sku',
        'unit_cost',
        'minimum_order_quantity',
        'lead_time_days',
        'is_preferred',
        'date_created',
      ],
    },
  },
})
