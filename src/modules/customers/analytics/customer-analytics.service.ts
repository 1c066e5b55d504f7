import type { Database } from '../../../db/database.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { customerNotFound } from './customer-analytics.errors.js'
import * as repository from './customer-analytics.repository.js'
import type {
  CustomerDetailSalesHistoryWrapperResponse,
  CustomerKpiMetricsResponse,
} from './customer-analytics.schemas.js'

/** Sums arrive as exact numeric text; they become JSON numbers only on the way out. */
const amount = (value: string | null) => Number(value ?? 0)

export async function getKpiMetrics(
  database: Database,
  auth: BusinessAuth,
  customerId: string,
): Promise<CustomerKpiMetricsResponse> {
  const row = await repository.kpiMetrics(database.db, auth.schemaName, auth.businessId, customerId)
  if (!row) throw customerNotFound()
  return {
    customerId,
    totalOrders: Number(row.order_count ?? 0),
    totalRevenue: amount(row.revenue),
    totalDeliveries: Number(row.deliveries),
    fulfillmentCost: amount(row.fulfillment_cost),
    averageOrderValue: amount(row.average),
    rankByOrderVolume: row.rank_volume === null ? null : Number(row.rank_volume),
    rankBySpend: row.rank_spend === null ? null : Number(row.rank_spend),
    rankedCustomers: Number(row.ranked_customers),
    ordersByStatus: row.orders_by_status,
    currency: row.currency,
    firstOrderDate: row.first_order?.toISOString() ?? null,
    lastOrderDate: row.last_order?.toISOString() ?? null,
  }
}

export async function getSalesData(
  database: Database,
  auth: BusinessAuth,
  customerId: string,
): Promise<CustomerDetailSalesHistoryWrapperResponse> {
  const rows = await repository.salesByMonth(database.db, auth.schemaName, auth.businessId, customerId)
  const first = rows[0]
  if (!first) throw customerNotFound()
  return {
    customerId,
    currency: first.currency,
    months: rows.map((row) => ({
      month: row.month,
      orderCount: Number(row.order_count),
      revenue: amount(row.revenue),
    })),
    totals: {
      orderCount: Number(first.total_orders),
      revenue: amount(first.total_revenue),
      averageOrderValue: amount(first.average),
    },
  }
}
