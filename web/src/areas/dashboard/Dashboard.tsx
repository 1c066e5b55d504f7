import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import {
  getDashboardSummaryOptions,
  getDispatchVolumesOptions,
  getShipmentVolumesOptions,
  getTopCustomersOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { VolumeSummaryResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { BarList, ColumnChart } from '../../components/Charts'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { lastDays } from '../../lib/dates'
import { day, integer, money, percent, words } from '../../lib/format'

const RANGES = [
  { days: 7, label: 'Last 7 days', granularity: 'Day' },
  { days: 30, label: 'Last 30 days', granularity: 'Day' },
  { days: 90, label: 'Last 90 days', granularity: 'Week' },
] as const

function Change({ change }: { change: { changePercent: number | null; previous: number } | undefined }) {
  if (!change) return null
  if (change.changePercent === null) return <span className="change">no earlier figure to compare</span>
  const sign = change.changePercent > 0 ? '+' : ''
  return (
    <span className="change">
      {sign}
      {change.changePercent.toFixed(1)}% on the previous period
    </span>
  )
}

const bucketLabel = (start: string, granularity: VolumeSummaryResponse['granularity']) =>
  granularity === 'Month' ? start.slice(0, 7) : day(start).replace(/,? \d{4}$/, '')

/** The first screen: how the business is doing over a range, and where to act. */
export default function Dashboard() {
  const [rangeIndex, setRangeIndex] = useState(1)
  const rangeId = useId()
  const range = RANGES[rangeIndex] ?? RANGES[1]
  // The business's days: near midnight the browser's today may be another day than the business's.
  const { timeZone } = useWorkspace()
  const query = lastDays(range.days, new Date(), timeZone)
  const summary = useQuery(getDashboardSummaryOptions({ query }))
  const shipments = useQuery(
    getShipmentVolumesOptions({ query: { ...query, granularity: range.granularity } }),
  )
  const plans = useQuery(getDispatchVolumesOptions({ query: { ...query, granularity: range.granularity } }))
  const top = useQuery(getTopCustomersOptions({ query: { ...query, top: 5 } }))
  const s = summary.data?.data
  const currency = s?.currency ?? null

  return (
    <>
      <PageHeader title="Dashboard">
        <label htmlFor={rangeId} className="visually-hidden">
          Period
        </label>
        <select
          id={rangeId}
          value={rangeIndex}
          onChange={(event) => setRangeIndex(Number(event.target.value))}
        >
          {RANGES.map((r, index) => (
            <option key={r.days} value={index}>
              {r.label}
            </option>
          ))}
        </select>
      </PageHeader>
      {summary.error ? (
        <ErrorNotice
          error={summary.error}
          what="Loading the summary"
          onRetry={() => void summary.refetch()}
        />
      ) : !s ? (
        <Loading label="Loading the summary…" />
      ) : (
        <>
          <p className="muted">
            {day(s.from)} to {day(s.to)} ({s.timeZone})
          </p>
          <dl className="figures">
            <div className="figure">
              <dt>Confirmed orders</dt>
              <dd>
                {integer(s.orders.count)}
                <Change change={s.changes.orderCount} />
                {/* Drafts are not sales yet: counted apart, so 0 beside open drafts reads right. */}
                {(s.orders.byStatus.Draft ?? 0) > 0 && (
                  <span className="change" data-testid="draft-orders">
                    and {integer(s.orders.byStatus.Draft)} draft{s.orders.byStatus.Draft === 1 ? '' : 's'},
                    not counted
                  </span>
                )}
              </dd>
            </div>
            <div className="figure">
              <dt>Revenue</dt>
              <dd>
                {money(s.orders.revenue, currency)}
                <Change change={s.changes.revenue} />
              </dd>
            </div>
            <div className="figure">
              <dt>Shipments</dt>
              <dd>
                {integer(s.shipments.count)}
                <Change change={s.changes.shipmentCount} />
              </dd>
            </div>
            <div className="figure">
              <dt>Delivered on time</dt>
              <dd>
                {percent(s.shipments.onTimeRate)}
                <span className="change">
                  {integer(s.shipments.deliveredOnTime)} of {integer(s.shipments.delivered)} delivered
                </span>
              </dd>
            </div>
            <div className="figure">
              <dt>Delivery plans</dt>
              <dd>
                {integer(s.plans.count)}
                <Change change={s.changes.planCount} />
              </dd>
            </div>
          </dl>
          <div className="grid">
            <section className="card" aria-labelledby="shipment-states">
              <h2 id="shipment-states">Shipments by state</h2>
              <BarList
                title="Shipments by state"
                points={Object.entries(s.shipments.byStatus).map(([status, count]) => ({
                  label: words(status),
                  value: count,
                }))}
              />
              <p>
                <Link href="/delivery">Open today's deliveries</Link>
              </p>
            </section>
            <section className="card" aria-labelledby="order-states">
              <h2 id="order-states">Orders by state</h2>
              <BarList
                title="Orders by state"
                points={Object.entries(s.orders.byStatus).map(([status, count]) => ({
                  label: words(status),
                  value: count,
                }))}
              />
              <p className="muted">Average order value {money(s.orders.averageOrderValue, currency)}</p>
            </section>
          </div>
        </>
      )}
      <div className="grid">
        <section className="card" aria-labelledby="shipment-volumes">
          <h2 id="shipment-volumes">Shipment volumes</h2>
          {shipments.error ? (
            <ErrorNotice error={shipments.error} onRetry={() => void shipments.refetch()} />
          ) : shipments.data ? (
            <ColumnChart
              title="Shipments created"
              points={shipments.data.data.buckets.map((b) => ({
                label: bucketLabel(b.start, shipments.data.data.granularity),
                value: b.count,
              }))}
            />
          ) : (
            <Loading />
          )}
        </section>
        <section className="card" aria-labelledby="dispatch-volumes">
          <h2 id="dispatch-volumes">Dispatch volumes</h2>
          {plans.error ? (
            <ErrorNotice error={plans.error} onRetry={() => void plans.refetch()} />
          ) : plans.data ? (
            <ColumnChart
              title="Delivery plans dispatched"
              tone="bar-alt"
              points={plans.data.data.buckets.map((b) => ({
                label: bucketLabel(b.start, plans.data.data.granularity),
                value: b.count,
              }))}
            />
          ) : (
            <Loading />
          )}
        </section>
      </div>
      <section className="card" aria-labelledby="top-customers">
        <h2 id="top-customers">Top customers</h2>
        {top.error ? (
          <ErrorNotice error={top.error} onRetry={() => void top.refetch()} />
        ) : top.data ? (
          <DataTable
            caption="Top customers by revenue"
            rows={top.data}
            rowKey={(row) => row.customerId}
            empty="No confirmed orders in this period."
            columns={[
              { key: 'rank', header: 'Rank', number: true, render: (row) => row.rank },
              {
                key: 'name',
                header: 'Customer',
                render: (row) => <Link href={`/customers/${row.customerId}`}>{row.customerName}</Link>,
              },
              { key: 'orders', header: 'Orders', number: true, render: (row) => integer(row.orderCount) },
              {
                key: 'revenue',
                header: 'Revenue',
                number: true,
                render: (row) => money(row.revenue, row.currency),
              },
              { key: 'share', header: 'Share', number: true, render: (row) => percent(row.revenueShare) },
            ]}
          />
        ) : (
          <Loading />
        )}
      </section>
    </>
  )
}
