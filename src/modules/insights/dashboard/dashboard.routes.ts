import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { getPurchaseOrderFigures, PurchaseOrderFiguresResponse } from '../../purchasing/index.js'
import {
  CustomerRankingResponse,
  DashboardSummaryResponse,
  DEFAULT_DAYS,
  MAX_DAYS,
  MAX_DAYS_BY_DAY,
  RangeQuery,
  TopCustomersQuery,
  VolumeQuery,
  VolumeSummaryResponse,
} from './dashboard.schemas.js'
import { getSummary, getTopCustomers, getVolumes } from './dashboard.service.js'

const VIEW = ['Insights', 'View'] as const
const BASE = '/api/v1/insights/dashboard'

const RANGE =
  "Days are those of the business's time zone (its timezone setting): `from` and `to` are inclusive local days, and " +
  `without them the range is the last ${DEFAULT_DAYS} days up to today there. A day that does not exist is a 400 naming ` +
  `it; \`from\` after \`to\`, or a range over ${MAX_DAYS} days, a 400 naming from.`
const VOLUMES =
  `Every bucket of the range is present, oldest first, empty ones as 0; weeks start on Monday, and the first and last ` +
  `buckets are clipped to the range. granularity Day allows at most ${MAX_DAYS_BY_DAY} days (else a 400 naming from); ` +
  `an unknown granularity is a 400 naming it. ${RANGE}`

/** Dashboard insights (M11 View): figures computed in SQL over orders, shipments and delivery plans. */
export function registerDashboardRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    `${BASE}/summary`,
    operation(VIEW, {
      operationId: 'GetDashboardSummary',
      summary:
        'Orders, revenue, shipments, on-time delivery and plans over a range, against the previous period',
      description:
        'Orders count when Confirmed, PartiallyFulfilled or Fulfilled, by orderDate; revenue sums their totals in the business currency ' +
        '(orders in other currencies count but are not summed); byStatus counts every order of the range. Shipments ' +
        'count by creation, with their current status. Deliveries are Delivered shipments by deliveredAt; one is on time ' +
        'when delivered on or before its scheduled day (local), and onTimeRate is over those with a scheduled date. ' +
        'Plans count by their scheduled day. changes compares headline figures with the period of equal length just ' +
        `before the range. Computed in one statement. ${RANGE}`,
      tags: ['Insights'],
      querystring: RangeQuery,
      response: SingleResult('core', DashboardSummaryResponse),
      errors: [400],
    }),
    async (request) => single('core', await getSummary(database, businessAuthOf(request), request.query)),
  )

  app.get(
    `${BASE}/shipment-volumes`,
    operation(VIEW, {
      operationId: 'GetShipmentVolumes',
      summary: 'Shipments created per day, week or month',
      description: `Each bucket counts the shipments created in it (any status). ${VOLUMES}`,
      tags: ['Insights'],
      querystring: VolumeQuery,
      response: SingleResult('core', VolumeSummaryResponse),
      errors: [400],
    }),
    async (request) =>
      single('core', await getVolumes(database, businessAuthOf(request), 'shipments', request.query)),
  )

  app.get(
    `${BASE}/dispatch-volumes`,
    operation(VIEW, {
      operationId: 'GetDispatchVolumes',
      summary: 'Delivery plans (dispatches) per day, week or month',
      description: `Each bucket counts the delivery plans scheduled in it that are not Cancelled. ${VOLUMES}`,
      tags: ['Insights'],
      querystring: VolumeQuery,
      response: SingleResult('core', VolumeSummaryResponse),
      errors: [400],
    }),
    async (request) =>
      single('core', await getVolumes(database, businessAuthOf(request), 'plans', request.query)),
  )

  app.get(
    `${BASE}/top-customers`,
    operation(VIEW, {
      operationId: 'GetTopCustomers',
      summary: 'Top customers by revenue over a range (a bare array, not an envelope)',
      description:
        'Customers (not deleted) with Confirmed, PartiallyFulfilled or Fulfilled orders in the range, ranked by revenue in the business ' +
        'currency (ties: more orders, then name); revenueShare is of the business revenue over the range from every ' +
        `counted order. top (1 to 100, default 10) bounds the list; out of bounds it is a 400 naming top. ${RANGE}`,
      tags: ['Insights'],
      querystring: TopCustomersQuery,
      response: Type.Array(CustomerRankingResponse),
      errors: [400],
    }),
    async (request) => getTopCustomers(database, businessAuthOf(request), request.query),
  )

  app.get(
    `${BASE}/purchase-orders`,
    operation(VIEW, {
      operationId: 'GetPurchaseOrderFigures',
      summary: 'Purchase orders: per status, open, overdue, and the open value per currency',
      description:
        'Open orders are Submitted or PartiallyReceived; overdue ones are open past their expected date (today in the ' +
        "business's time zone), and reading the figures announces newly overdue ones (PurchaseOrderOverdue, once per " +
        'order). Values are per currency, never summed across currencies. Computed in one statement.',
      tags: ['Insights'],
      response: SingleResult('core', PurchaseOrderFiguresResponse),
      errors: [],
    }),
    async (request) => single('core', await getPurchaseOrderFigures(deps, businessAuthOf(request))),
  )
}
