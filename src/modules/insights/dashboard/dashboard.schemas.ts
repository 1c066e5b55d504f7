import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { PLAN_STATUSES, SHIPMENT_STATUSES } from '../../delivery/index.js'
import { ORDER_STATUSES } from '../../sales/index.js'

export const GRANULARITIES = ['Day', 'Week', 'Month'] as const
export type Granularity = (typeof GRANULARITIES)[number]

/** Longest ranges: a day series over 3 years is ~1,100 points; anything else is capped at 10 years. */
export const MAX_DAYS_BY_DAY = 1_096
export const MAX_DAYS = 3_653
export const DEFAULT_DAYS = 30
export const DEFAULT_TOP = 10
export const MAX_TOP = 100

const Day = (description: string) =>
  Type.String({ description: `${description}, yyyy-mm-dd in the business's time zone` })

const rangeQuery = {
  from: Type.Optional(
    Day(`first day of the range (inclusive); default: \`to\` minus ${DEFAULT_DAYS - 1} days`),
  ),
  to: Type.Optional(Day('last day of the range (inclusive); default: today')),
}

export const RangeQuery = Type.Object(rangeQuery)
export type RangeQuery = Static<typeof RangeQuery>

export const VolumeQuery = Type.Object({
  ...rangeQuery,
  granularity: Type.Optional(
    EnumType(GRANULARITIES, {
      description: `bucket size (default Day); weeks start on Monday. Day allows ranges up to ${MAX_DAYS_BY_DAY} days`,
    }),
  ),
})
export type VolumeQuery = Static<typeof VolumeQuery>

export const TopCustomersQuery = Type.Object({
  ...rangeQuery,
  top: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_TOP,
      description: `how many customers (default ${DEFAULT_TOP}, at most ${MAX_TOP})`,
    }),
  ),
})
export type TopCustomersQuery = Static<typeof TopCustomersQuery>

const money = (description: string) => Type.Number({ description })
const counts = (names: readonly string[], what: string) =>
  Type.Object(Object.fromEntries(names.map((name) => [name, Type.Integer()])), {
    description: `${what} per current status; every status present, 0 included`,
  })

const Change = Type.Object({
  current: Type.Number(),
  previous: Type.Number({ description: 'the same measure over the previous period' }),
  change: Type.Number({ description: 'current - previous' }),
  changePercent: Nullable(
    Type.Number({
      description: '(current - previous) / previous x 100, 2 decimals; null when previous is 0',
    }),
  ),
})

const Period = {
  from: Type.String({ description: 'first day (inclusive), yyyy-mm-dd' }),
  to: Type.String({ description: 'last day (inclusive), yyyy-mm-dd' }),
  timeZone: Type.String({ description: "the business's IANA time zone: days start at its midnight" }),
}

export const DashboardSummaryResponse = Type.Object(
  {
    ...Period,
    previousFrom: Type.String({ description: 'first day of the previous period of equal length' }),
    previousTo: Type.String({ description: 'last day of the previous period (the day before `from`)' }),
    currency: Type.String({
      description: "the business's currency; money in other currencies is not summed",
    }),
    orders: Type.Object({
      count: Type.Integer({
        description: 'Confirmed, PartiallyFulfilled and Fulfilled orders with orderDate in the range',
      }),
      revenue: money('sum of their totals in `currency`'),
      averageOrderValue: money('revenue / counted orders in `currency`, 4 decimals; 0 with none'),
      byStatus: counts(ORDER_STATUSES, 'orders with orderDate in the range'),
    }),
    shipments: Type.Object({
      count: Type.Integer({ description: 'shipments created in the range' }),
      byStatus: counts(SHIPMENT_STATUSES, 'shipments created in the range'),
      delivered: Type.Integer({ description: 'shipments Delivered with deliveredAt in the range' }),
      deliveredOnTime: Type.Integer({
        description: 'of those with a scheduled date, delivered on or before the scheduled day (local)',
      }),
      onTimeRate: Nullable(
        Type.Number({
          description:
            'deliveredOnTime / delivered shipments that have a scheduled date, 0..1 with 4 decimals; null with none',
        }),
      ),
    }),
    plans: Type.Object({
      count: Type.Integer({ description: 'delivery plans scheduled in the range' }),
      byStatus: counts(PLAN_STATUSES, 'delivery plans scheduled in the range'),
    }),
    transfers: Type.Object(
      {
        outgoingInTransit: Type.Integer({
          description: 'transfer orders shipped by this business, not yet wholly received',
        }),
        outgoingValueInTransit: money('their goods not yet received, at the cost they left with'),
        incomingInTransit: Type.Integer({
          description: 'transfer orders shipped to this business, not yet wholly received',
        }),
        incomingValueInTransit: money('their goods not yet received, at the cost they left with'),
      },
      { description: 'stock in transit between the businesses of the organisation now, whatever the range' },
    ),
    fulfilment: Type.Object(
      {
        orderedUnits: Type.Number({
          description: 'units of products ordered on the counted orders with orderDate in the range',
        }),
        filledUnits: Type.Number({
          description:
            'of those, the units shipped (dispatched and not come back), at most the ordered per line',
        }),
        fillRate: Nullable(
          Type.Number({
            description: 'filledUnits / orderedUnits, 0..1 with 4 decimals; null with none ordered',
          }),
        ),
        otifRated: Type.Integer({
          description: 'counted orders with orderDate in the range that have a delivered shipment',
        }),
        otifOrders: Type.Integer({
          description:
            'of those, the orders on time in full: every product line delivered in full, and every delivered shipment delivered on or before its scheduled day (local)',
        }),
        otifRate: Nullable(
          Type.Number({ description: 'otifOrders / otifRated, 0..1 with 4 decimals; null with none rated' }),
        ),
        shippedRevenue: money(
          "what was dispatched in the range, at its order lines' prices, in `currency` (goods that came back excluded)",
        ),
        backorderedOrders: Type.Integer({
          description:
            'open (Confirmed, PartiallyFulfilled) orders with a backordered line now, whatever the range',
        }),
        backorderedLines: Type.Integer({ description: 'their backordered lines' }),
        backorderedUnits: Type.Number({ description: 'units short at confirmation and not shipped since' }),
        returnsCredited: Type.Integer({
          description: 'returns received back into stock or written off in the range (by that day)',
        }),
        returnedValue: money("their value at the order lines' prices, credited on the orders, in `currency`"),
      },
      { description: 'how orders turn into deliveries' },
    ),
    changes: Type.Object(
      {
        shippedRevenue: Change,
        orderCount: Change,
        revenue: Change,
        shipmentCount: Change,
        deliveredCount: Change,
        planCount: Change,
        onTimeRate: Type.Object({
          current: Nullable(Type.Number()),
          previous: Nullable(Type.Number()),
          change: Nullable(Type.Number({ description: 'difference of the rates; null when either is null' })),
        }),
      },
      { description: 'headline figures against the previous period of equal length' },
    ),
  },
  { title: 'DashboardSummaryResponse' },
)
export type DashboardSummaryResponse = Static<typeof DashboardSummaryResponse>

export const VolumeBucket = Type.Object({
  start: Type.String({ description: 'first day of the bucket within the range, yyyy-mm-dd' }),
  end: Type.String({ description: 'last day of the bucket within the range, yyyy-mm-dd' }),
  count: Type.Integer(),
})

export const VolumeSummaryResponse = Type.Object(
  {
    ...Period,
    granularity: EnumType(GRANULARITIES),
    total: Type.Integer({ description: 'sum of the buckets' }),
    buckets: Type.Array(VolumeBucket, {
      description:
        'every bucket of the range, oldest first, empty ones as 0; the first and last are clipped to the range',
    }),
  },
  { title: 'VolumeSummaryResponse' },
)
export type VolumeSummaryResponse = Static<typeof VolumeSummaryResponse>

export const CustomerRankingResponse = Type.Object(
  {
    rank: Type.Integer({ description: '1 = highest revenue' }),
    customerId: Uuid(),
    customerCode: Type.String(),
    customerName: Type.String(),
    orderCount: Type.Integer({
      description: 'Confirmed, PartiallyFulfilled and Fulfilled orders with orderDate in the range',
    }),
    revenue: money("sum of their totals in the business's currency"),
    revenueShare: Type.Number({
      description: "revenue / the business's revenue over the range (all customers), 0..1 with 4 decimals",
    }),
    currency: Type.String(),
  },
  { title: 'CustomerRankingResponse' },
)
export type CustomerRankingResponse = Static<typeof CustomerRankingResponse>
