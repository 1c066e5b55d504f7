import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CustomerParams } from '../customers/index.js'
import {
  CustomerDetailSalesHistoryWrapperResponse,
  CustomerKpiMetricsResponse,
} from './customer-analytics.schemas.js'
import { getKpiMetrics, getSalesData } from './customer-analytics.service.js'

const VIEW = ['Customers', 'View'] as const
const NOT_FOUND = "An unknown, deleted or other business's customer is a 404 customer_not_found."

/** Customer analytics (M3 View): a customer's KPIs and monthly sales, computed in SQL. */
export function registerCustomerAnalyticsRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/Customers/:customerId/kpi-metrics',
    operation(VIEW, {
      operationId: 'GetKpiMetrics',
      summary: "A customer's order, revenue, delivery and cost KPIs with their rank in the business",
      description:
        'Counted orders are those Confirmed or Fulfilled (Draft and Cancelled are excluded). totalRevenue sums their totals in the ' +
        "business's currency (orders in other currencies count in totalOrders but are not summed). totalDeliveries counts the customer's " +
        'Delivered shipments; fulfillmentCost sums fulfillmentCost over its shipments that are not Cancelled. Ranks are dense ranks ' +
        "(1 = most; ties share a rank) among the business's customers that are not deleted and have at least one counted order; " +
        `a customer with none has null ranks. ${NOT_FOUND}`,
      tags: ['Customers'],
      params: CustomerParams,
      response: SingleResult('core', CustomerKpiMetricsResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getKpiMetrics(database, businessAuthOf(request), request.params.customerId)),
  )

  app.get(
    '/api/v1/Customers/:customerId/sales-analytics',
    operation(VIEW, {
      operationId: 'GetSalesData',
      summary: "A customer's sales per month over the last 12 months",
      description:
        'Exactly the last 12 calendar months in UTC, the current month included, oldest first, months without sales as 0. ' +
        "orderCount counts Confirmed and Fulfilled orders by orderDate; revenue sums their totals in the business's currency. " +
        `totals cover the 12 months. ${NOT_FOUND}`,
      tags: ['Customers'],
      params: CustomerParams,
      response: SingleResult('core', CustomerDetailSalesHistoryWrapperResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getSalesData(database, businessAuthOf(request), request.params.customerId)),
  )
}
