import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import { registerProductRoutes } from './products.routes.js'

/** Products (M4): raw materials, components, finished goods and services. */
export const productsModule = defineModule({
  name: 'manufacturing/products',
  core: {
    tags: [{ name: 'Products', description: 'Products and their stock ledger (Products)' }],
    routes: registerProductRoutes,
  },
  schemaNames: returning('ProductResponse', ['GetProducts', 'CreateProduct', 'GetProduct', 'UpdateProduct']),
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    products: {
      source: 'products',
      filter: 'archived_at IS NULL',
      columns: [
        'id',
        'sku',
        'name',
        'type',
        'unit_of_measure',
        'unit_cost',
        'unit_price',
        'on_hand',
        'date_created',
      ],
    },
  },
})
