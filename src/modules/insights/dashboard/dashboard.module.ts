import { defineModule } from '../../../platform/module.js'
import { registerDashboardRoutes } from './dashboard.routes.js'
import * as fulfilmentFigureIndexes from './migrations/20261217100000-fulfilment-figure-indexes.js'
import * as returnsFigureIndex from './migrations/20261221090000-returns-figure-index.js'

/** Dashboard figures: summary (with fulfilment: fill rate, on time in full, backorders, revenue shipped), volumes, top customers. */
export const dashboardModule = defineModule({
  name: 'insights/dashboard',
  core: {
    tags: [
      { name: 'Insights', description: 'Dashboard figures: summary, volumes, top customers (Insights)' },
    ],
    routes: registerDashboardRoutes,
  },
  migrations: {
    tenant: [
      { name: '20261217100000-fulfilment-figure-indexes', sql: fulfilmentFigureIndexes.sql },
      { name: '20261221090000-returns-figure-index', sql: returnsFigureIndex.sql },
    ],
  },
})
