import { defineModule } from '../../../platform/module.js'
import { registerCustomerAnalyticsRoutes } from './customer-analytics.routes.js'

/** A customer's KPIs and sales history. */
export const customerAnalyticsModule = defineModule({
  name: 'customers/analytics',
  core: {
    routes: registerCustomerAnalyticsRoutes,
  },
  schemaNames: {
    GetKpiMetrics: { data: 'CustomerKpiMetricsResponse' },
    GetSalesData: { data: 'CustomerDetailSalesHistoryWrapperResponse' },
  },
})
