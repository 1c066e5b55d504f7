import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

const money = (description: string) => Type.Number({ description })

export const CustomerKpiMetricsResponse = Type.Object(
  {
    customerId: Uuid(),
    totalOrders: Type.Integer({
      description:
        'orders with status Confirmed, PartiallyFulfilled or Fulfilled (Draft and Cancelled are not counted), in any currency',
    }),
    totalRevenue: money('sum of the totals of the counted orders in `currency`'),
    totalDeliveries: Type.Integer({ description: "the customer's shipments with status Delivered" }),
    fulfillmentCost: money("sum of fulfillmentCost over the customer's shipments that are not Cancelled"),
    averageOrderValue: money(
      'totalRevenue / counted orders in `currency`, rounded to 4 decimal places; 0 with none',
    ),
    rankByOrderVolume: Nullable(
      Type.Integer({
        description: 'dense rank by counted orders (1 = most) among ranked customers; null when unranked',
      }),
    ),
    rankBySpend: Nullable(
      Type.Integer({ description: 'dense rank by totalRevenue (1 = most); null when unranked' }),
    ),
    rankedCustomers: Type.Integer({
      description:
        "the business's customers (not deleted) with at least one counted order: the ranks' population",
    }),
    currency: Type.String({
      description: "the business's currency; money in other currencies is not summed",
    }),
    firstOrderDate: Nullable(DateTime({ description: 'earliest orderDate of a counted order' })),
    lastOrderDate: Nullable(DateTime({ description: 'latest orderDate of a counted order' })),
    ordersByStatus: Type.Record(Type.String(), Type.Integer(), {
      description:
        "all the customer's orders per status, Draft and Cancelled included (a status with none is left out): what totalOrders leaves out",
    }),
  },
  { title: 'CustomerKpiMetricsResponse' },
)
export type CustomerKpiMetricsResponse = Static<typeof CustomerKpiMetricsResponse>

export const SalesMonth = Type.Object({
  month: Type.String({ description: 'YYYY-MM (UTC)', pattern: '^\\d{4}-\\d{2}$' }),
  orderCount: Type.Integer({
    description: 'counted orders (Confirmed or Fulfilled) with orderDate in the month',
  }),
  revenue: money('sum of their totals in `currency`'),
})

export const CustomerDetailSalesHistoryWrapperResponse = Type.Object(
  {
    customerId: Uuid(),
    currency: Type.String({ description: "the business's currency" }),
    months: Type.Array(SalesMonth, {
      description:
        'exactly the last 12 calendar months (UTC), the current month included, oldest first; months without orders are 0',
    }),
    totals: Type.Object({
      orderCount: Type.Integer(),
      revenue: money('revenue of the 12 months'),
      averageOrderValue: money(
        'revenue / counted orders in `currency` over the 12 months, rounded to 4 decimal places; 0 with none',
      ),
    }),
  },
  { title: 'CustomerDetailSalesHistoryWrapperResponse' },
)
export type CustomerDetailSalesHistoryWrapperResponse = Static<
  typeof CustomerDetailSalesHistoryWrapperResponse
>
