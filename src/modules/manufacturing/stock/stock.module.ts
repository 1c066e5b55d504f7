import { defineModule } from '../../../platform/module.js'
import * as exactStockValuation from './migrations/20261127090000-exact-stock-valuation.js'
import { stockEvents } from './stock.events.js'
import { registerStockRoutes } from './stock.routes.js'

/** The stock ledger of each product: movements, stock and cost as of a date, bulk history. */
export const stockModule = defineModule({
  name: 'manufacturing/stock',
  core: {
    routes: registerStockRoutes,
  },
  migrations: {
    tenant: [{ name: '20261127090000-exact-stock-valuation', sql: exactStockValuation.sql }],
  },
  events: stockEvents,
  // Each ledger movement is a history already; checkpoints are derived from it.
  unauditedTables: ['stock_ledger', 'stock_checkpoints'],
})
