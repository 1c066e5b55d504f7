/**
 * The public tracking page (GET /api/v1/track/{token}: no sign-in, HTML) of a shipment on its
 * way, with a delivery window, a planned arrival and the driver's arrival on its timeline. The
 * bare route runs the two statements the page needs (the link by its token, which names the
 * organisation's schema, then the shipment with its plan's day, its business's time zone and its
 * arrival in one statement), each prepared, and renders the same page. Goal: p50 under 5 ms.
 */
import { wallClockText } from '../src/modules/delivery/local-time.js'
import { type TrackingView, trackingPage } from '../src/modules/delivery/tracking/tracking-page.js'
import type { Scenario, Statement } from './scenario-types.js'
import { trackingToken } from './seed-order-to-door.js'

const link: Statement = {
  name: 'bench-tracking-link',
  sql: 'SELECT schema_name, business_id, shipment_id FROM global.tracking_links WHERE token = $1',
  params: (seed) => [trackingToken(seed)],
}

const shipment: Statement = {
  name: 'bench-tracking-shipment',
  sql: ({ schemaName: s }) =>
    `SELECT b.timezone, s.delivery_windows, s.planned_arrival, s.status, s.date_created, s.dispatched_at,
       s.delivered_at, s.failed_at, s.returned_at, s.cancelled_at, s.scheduled_date, p.scheduled_date AS plan_date,
       (SELECT max(o.occurred_at) FROM "${s}".stop_operations o WHERE o.shipment_id = s.id AND o.kind = 'Arrived'
          AND o.delivery_plan_id IS NOT DISTINCT FROM s.delivery_plan_id) AS arrived_at
     FROM "${s}".shipments s
     LEFT JOIN "${s}".delivery_plans p ON p.id = s.delivery_plan_id
     JOIN "${s}".businesses b ON b.id = s.business_id
     WHERE s.business_id = $1 AND s.id = $2`,
  params: (_seed, fresh) => [fresh.previous[0]?.business_id, fresh.previous[0]?.shipment_id],
}

interface Tracked {
  timezone: string
  delivery_windows: { start: string; end: string }[] | null
  planned_arrival: Date | null
  status: string
  date_created: Date
  dispatched_at: Date | null
  delivered_at: Date | null
  failed_at: Date | null
  returned_at: Date | null
  cancelled_at: Date | null
  scheduled_date: Date | null
  plan_date: Date | string | null
  arrived_at: Date | null
}

const day = (value: Date | string | null) =>
  value === null ? null : typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10)

/** The page, as the tracking module writes it from the same row. */
function page(row: Tracked): string {
  const local = (at: Date) => wallClockText(at, row.timezone)
  const steps: [string, Date | null][] = [
    ['Order received', row.date_created],
    ['Out for delivery', row.dispatched_at],
    ['Driver arrived', row.arrived_at],
    ['Delivered', row.delivered_at],
    ['Delivery attempt failed', row.failed_at],
    ['Returned to sender', row.returned_at],
    ['Cancelled', row.cancelled_at],
  ]
  const view: TrackingView = {
    status: row.status,
    expectedDay: day(row.plan_date) ?? day(row.scheduled_date),
    timeZone: row.timezone,
    windows: (row.delivery_windows ?? []).map(
      (w) => `${local(new Date(w.start))} to ${local(new Date(w.end))}`,
    ),
    plannedArrival:
      row.planned_arrival && ['Assigned', 'InTransit'].includes(row.status)
        ? local(row.planned_arrival)
        : null,
    timeline: steps
      .filter((step): step is [string, Date] => step[1] !== null)
      .map(([label, at]) => ({ label, at }))
      .sort((a, b) => a.at.getTime() - b.at.getTime()),
  }
  return trackingPage(view)
}

export const trackingScenarios: Scenario[] = [
  {
    name: 'tracking-page',
    kind: 'read',
    latencyGoalMs: 5,
    cartage: {
      api: 'core',
      method: 'GET',
      path: (seed) => `/api/v1/track/${trackingToken(seed)}`,
      headers: () => ({ accept: 'text/html' }),
      check: (page) =>
        typeof page === 'string' && page.includes('Out for delivery') && page.includes('Driver arrived'),
    },
    baseline: {
      steps: [[link], [shipment]],
      rows: [1, 1],
      respond: (results) => page(results.at(-1)?.[0] as unknown as Tracked),
      contentType: 'text/html; charset=utf-8',
    },
  },
]
