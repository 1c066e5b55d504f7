import { type Database, readTarget } from '../../../db/database.js'
import { invalidField } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import type { RangeInput, RangeRow, VolumeSource } from './dashboard.repository.js'
import * as repository from './dashboard.repository.js'
import {
  type CustomerRankingResponse,
  type DashboardSummaryResponse,
  DEFAULT_TOP,
  type Granularity,
  MAX_DAYS,
  MAX_DAYS_BY_DAY,
  type RangeQuery,
  type TopCustomersQuery,
  type VolumeQuery,
  type VolumeSummaryResponse,
} from './dashboard.schemas.js'

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar day yyyy-mm-dd that exists (no 2026-02-30); a 400 naming the parameter otherwise. */
function parseDay(field: 'from' | 'to', value: string | undefined): string | null {
  if (value === undefined) return null
  const match = DAY_PATTERN.exec(value)
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null
  if (!date || date.toISOString().slice(0, 10) !== value || Number(match?.[1]) < 1900)
    throw invalidField(field, 'must be a calendar day yyyy-mm-dd (from 1900)')
  return value
}

function rangeInput(auth: BusinessAuth, query: RangeQuery, maxDays: number): RangeInput {
  const from = parseDay('from', query.from)
  const to = parseDay('to', query.to)
  return { schema: auth.schemaName, businessId: auth.businessId, from, to, maxDays }
}

/**
 * The statement resolves defaults against "today" in the business's time zone and reads nothing
 * for a refused range; the reason is worded here. Both checks name `from`, the bound to move.
 */
function checkRange(row: RangeRow | undefined, granularity?: Granularity): asserts row is RangeRow {
  if (!row) throw new Error('the business of an authenticated request has no row')
  if (row.ok) return
  if (row.from_day > row.to_day) throw invalidField('from', `must be on or before to (${row.to_day})`)
  const limit = granularity === 'Day' ? MAX_DAYS_BY_DAY : MAX_DAYS
  throw invalidField(
    'from',
    granularity === 'Day'
      ? `the range may span at most ${limit} days with granularity Day; use Week or Month for longer ranges`
      : `the range may span at most ${limit} days`,
  )
}

/** Sums and counts arrive as exact numeric text; they become JSON numbers only on the way out. */
const num = (value: string | number | null) => Number(value ?? 0)
const round = (value: number, places: number) => Number(value.toFixed(places))
const rate = (part: string, whole: string) => (num(whole) === 0 ? null : round(num(part) / num(whole), 4))

function change(current: number, previous: number, places = 4) {
  return {
    current,
    previous,
    change: round(current - previous, places),
    changePercent: previous === 0 ? null : round(((current - previous) / previous) * 100, 2),
  }
}

export async function getSummary(
  database: Database,
  auth: BusinessAuth,
  query: RangeQuery,
): Promise<DashboardSummaryResponse> {
  const row = await repository.summary((await readTarget(database)).db, rangeInput(auth, query, MAX_DAYS))
  checkRange(row)
  const onTime = rate(row.on_time, row.rated)
  const onTimePrev = rate(row.on_time_prev, row.rated_prev)
  const revenue = num(row.revenue)
  return {
    from: row.from_day,
    to: row.to_day,
    timeZone: row.time_zone,
    previousFrom: row.previous_from ?? '',
    previousTo: row.previous_to ?? '',
    currency: row.currency,
    orders: {
      count: num(row.order_count),
      revenue,
      averageOrderValue: num(row.currency_orders) === 0 ? 0 : round(revenue / num(row.currency_orders), 4),
      byStatus: row.orders_by_status,
    },
    shipments: {
      count: num(row.shipment_count),
      byStatus: row.shipments_by_status,
      delivered: num(row.delivered),
      deliveredOnTime: num(row.on_time),
      onTimeRate: onTime,
    },
    plans: { count: num(row.plan_count), byStatus: row.plans_by_status },
    transfers: {
      outgoingInTransit: num(row.transfers_out),
      outgoingValueInTransit: num(row.transfers_out_value),
      incomingInTransit: num(row.transfers_in),
      incomingValueInTransit: num(row.transfers_in_value),
    },
    fulfilment: {
      orderedUnits: num(row.ordered_units),
      filledUnits: num(row.filled_units),
      fillRate: rate(row.filled_units, row.ordered_units),
      otifRated: num(row.otif_rated),
      otifOrders: num(row.otif_orders),
      otifRate: rate(row.otif_orders, row.otif_rated),
      shippedRevenue: round(num(row.shipped_revenue), 4),
      backorderedOrders: num(row.backordered_orders),
      backorderedLines: num(row.backordered_lines),
      backorderedUnits: num(row.backordered_units),
      returnsCredited: num(row.returns_credited),
      returnedValue: round(num(row.returned_value), 4),
    },
    changes: {
      shippedRevenue: change(round(num(row.shipped_revenue), 4), round(num(row.shipped_revenue_prev), 4)),
      orderCount: change(num(row.order_count), num(row.order_count_prev)),
      revenue: change(revenue, num(row.revenue_prev)),
      shipmentCount: change(num(row.shipment_count), num(row.shipment_count_prev)),
      deliveredCount: change(num(row.delivered), num(row.delivered_prev)),
      planCount: change(num(row.plan_count), num(row.plan_count_prev)),
      onTimeRate: {
        current: onTime,
        previous: onTimePrev,
        change: onTime === null || onTimePrev === null ? null : round(onTime - onTimePrev, 4),
      },
    },
  }
}

export async function getVolumes(
  database: Database,
  auth: BusinessAuth,
  source: VolumeSource,
  query: VolumeQuery,
): Promise<VolumeSummaryResponse> {
  const granularity = query.granularity ?? 'Day'
  const maxDays = granularity === 'Day' ? MAX_DAYS_BY_DAY : MAX_DAYS
  const rows = await repository.volumes((await readTarget(database)).db, {
    ...rangeInput(auth, query, maxDays),
    source,
    granularity,
  })
  const first = rows[0]
  checkRange(first, granularity)
  const buckets = rows.map((row) => ({
    start: row.bucket_start ?? '',
    end: row.bucket_end ?? '',
    count: num(row.count),
  }))
  return {
    from: first.from_day,
    to: first.to_day,
    timeZone: first.time_zone,
    granularity,
    total: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
    buckets,
  }
}

export async function getTopCustomers(
  database: Database,
  auth: BusinessAuth,
  query: TopCustomersQuery,
): Promise<CustomerRankingResponse[]> {
  const rows = await repository.topCustomers((await readTarget(database)).db, {
    ...rangeInput(auth, query, MAX_DAYS),
    top: query.top ?? DEFAULT_TOP,
  })
  checkRange(rows[0])
  return rows.flatMap((row, index) =>
    row.customer_id === null
      ? []
      : [
          {
            rank: index + 1,
            customerId: row.customer_id,
            customerCode: row.customer_code ?? '',
            customerName: row.customer_name ?? '',
            orderCount: num(row.order_count),
            revenue: num(row.revenue),
            revenueShare: num(row.revenue_share),
            currency: row.currency,
          },
        ],
  )
}
