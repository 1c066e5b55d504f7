import { defineModule } from '../../../platform/module.js'
import { registerStockRoutes } from './stock.routes.js'

/** The stock ledger of each product: movements, stock and cost as of a date. */
export const stockModule = defineModule({
  name: 'manufacturing/stock',
  core: {
    routes: registerStockRoutes,
  },
})
