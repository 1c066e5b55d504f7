import { defineModule } from '../../../platform/module.js'
import { registerDashboardRoutes } from './dashboard.routes.js'

/** Dashboard figures: summary, volumes, top customers. */
export const dashboardModule = defineModule({
  name: 'insights/dashboard',
  core: {
    tags: [
      { name: 'Insights', description: 'Dashboard figures: summary, volumes, top customers (Insights)' },
    ],
    routes: registerDashboardRoutes,
  },
})
