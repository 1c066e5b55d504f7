import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useLocation } from 'wouter'
import {
  getAllDeliveryZonesOptions,
  getDispatchOverviewOptions,
  getTripsOptions,
  getVehiclesOptions,
  saveDispatchMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { ChoiceFilter, DayFilter } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { Status } from '../../components/Status'
import { localDay } from '../../lib/dates'
import { day, integer, kilometres, words } from '../../lib/format'

const PLAN_STATES = ['Draft', 'Scheduled', 'Dispatched', 'Completed', 'Cancelled'] as const

/** The dispatcher's morning: today's plans, what is still unassigned, plans of any day, a new plan. */
export default function DeliveryToday() {
  const { can } = useWorkspace()
  const overview = useQuery(getDispatchOverviewOptions())
  const [date, setDate] = useState(localDay())
  const [status, setStatus] = useState('')
  const [page, setPage] = useState(1)
  const plans = useQuery({
    ...getTripsOptions({
      query: { page, perPage: 20, ...(date ? { from: date, to: date } : {}), ...(status ? { status } : {}) },
    }),
    placeholderData: keepPreviousData,
  })
  const o = overview.data?.data

  return (
    <>
      <PageHeader title="Delivery">
        <Link className="button secondary" href="/delivery/shipments">
          All shipments
        </Link>
        <Link className="button secondary" href="/delivery/zones">
          Delivery zones
        </Link>
      </PageHeader>
      {overview.error ? (
        <ErrorNotice
          error={overview.error}
          what="Loading today's overview"
          onRetry={() => void overview.refetch()}
        />
      ) : !o ? (
        <Loading label="Loading today's overview…" />
      ) : (
        <>
          <dl className="figures">
            {PLAN_STATES.map((s) => (
              <div className="figure" key={s}>
                <dt>{words(s)} plans</dt>
                <dd>{integer((o.countsByStatus as Record<string, number>)[s] ?? 0)}</dd>
              </div>
            ))}
            <div className="figure">
              <dt>Shipments on no plan</dt>
              <dd>
                <Link href="/delivery/shipments">{integer(o.unassignedShipments)}</Link>
              </dd>
            </div>
          </dl>
          <section className="card" aria-labelledby="d-today">
            <h2 id="d-today">Today's plans</h2>
            <DataTable
              caption="Today's plans"
              rows={o.todaysPlans}
              rowKey={(row) => row.id}
              empty="No plan for today yet: make one below."
              columns={[
                {
                  key: 'code',
                  header: 'Plan',
                  nowrap: true,
                  render: (row) => <Link href={`/delivery/plans/${row.id}`}>{row.code}</Link>,
                },
                { key: 'name', header: 'Name', render: (row) => row.name ?? '—' },
                { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
                {
                  key: 'stops',
                  header: 'Shipments',
                  number: true,
                  render: (row) => integer(row.shipmentCount),
                },
              ]}
            />
          </section>
        </>
      )}
      <section className="card" aria-labelledby="d-plans">
        <h2 id="d-plans">Plans by day</h2>
        <div className="toolbar">
          <DayFilter
            label="Delivery day"
            value={date}
            onChange={(value) => {
              setDate(value)
              setPage(1)
            }}
          />
          <ChoiceFilter
            label="State"
            value={status}
            onChange={(value) => {
              setStatus(value)
              setPage(1)
            }}
            choices={PLAN_STATES}
          />
        </div>
        <Loaded query={plans}>
          {(result) => (
            <>
              <DataTable
                caption={`Plans for ${day(date)}`}
                rows={result.data}
                rowKey={(row) => row.id}
                empty="No plan on that day."
                columns={[
                  {
                    key: 'code',
                    header: 'Plan',
                    nowrap: true,
                    render: (row) => <Link href={`/delivery/plans/${row.id}`}>{row.code}</Link>,
                  },
                  { key: 'name', header: 'Name', render: (row) => row.name ?? '—' },
                  { key: 'day', header: 'Day', nowrap: true, render: (row) => day(row.scheduledDate) },
                  { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
                  {
                    key: 'stops',
                    header: 'Stops',
                    number: true,
                    render: (row) => integer(row.totals.shipmentCount),
                  },
                  {
                    key: 'km',
                    header: 'Distance',
                    number: true,
                    render: (row) => kilometres(row.totals.distanceKm),
                  },
                  { key: 'driver', header: 'Driver', render: (row) => row.driverName ?? '—' },
                ]}
              />
              <Pager
                label="Plans"
                page={result.page}
                finalPage={result.finalPage}
                totalCount={result.totalCount}
                pageSize={20}
                onPage={setPage}
              />
            </>
          )}
        </Loaded>
      </section>
      {can('Shipments', 'Modify') && <NewPlan />}
    </>
  )
}

function NewPlan() {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const vehicles = useQuery(
    getVehiclesOptions({ query: { Page: 1, PageSize: 100, $filter: 'active eq true' } }),
  )
  const zones = useQuery(getAllDeliveryZonesOptions({ query: { Page: 1, PageSize: 100 } }))
  const [form, setForm] = useState({ scheduledDate: localDay(), name: '', vehicleId: '', driverName: '' })
  const [zoneIds, setZoneIds] = useState<string[]>([])
  const save = useMutation({
    ...saveDispatchMutation(),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: [{ _id: 'getTrips' }] })
      void queryClient.invalidateQueries({ queryKey: [{ _id: 'getDispatchOverview' }] })
      navigate(`/delivery/plans/${result.data.id}`)
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate({
      body: {
        scheduledDate: form.scheduledDate,
        name: form.name.trim() || null,
        vehicleId: form.vehicleId || null,
        driverName: form.driverName.trim() || null,
        deliveryZoneIds: zoneIds,
      },
    })
  }
  return (
    <section className="card" aria-labelledby="d-new">
      <h2 id="d-new">New plan</h2>
      {save.error ? <ErrorNotice error={save.error} what="Saving the plan" /> : null}
      <form onSubmit={submit}>
        <div className="form-row">
          <Field label="Delivery day">
            {(control) => (
              <input
                {...control}
                type="date"
                required
                value={form.scheduledDate}
                onChange={(event) => setForm({ ...form, scheduledDate: event.target.value })}
              />
            )}
          </Field>
          <Field label="Plan name">
            {(control) => (
              <input
                {...control}
                value={form.name}
                onChange={(event) => setForm({ ...form, name: event.target.value })}
              />
            )}
          </Field>
          <Field label="Vehicle" hint="Its weight and volume bound autobatch">
            {(control) => (
              <select
                {...control}
                value={form.vehicleId}
                onChange={(event) => setForm({ ...form, vehicleId: event.target.value })}
              >
                <option value="">None</option>
                {vehicles.data?.data.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name} ({v.registration})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Driver">
            {(control) => (
              <input
                {...control}
                value={form.driverName}
                onChange={(event) => setForm({ ...form, driverName: event.target.value })}
              />
            )}
          </Field>
        </div>
        <fieldset>
          <legend>Zones it draws from (none ticked = every active zone)</legend>
          {zones.data?.data
            .filter((z) => z.active)
            .map((z) => (
              <label key={z.id} className="check">
                <input
                  type="checkbox"
                  checked={zoneIds.includes(z.id)}
                  onChange={(event) =>
                    setZoneIds((current) =>
                      event.target.checked ? [...current, z.id] : current.filter((id) => id !== z.id),
                    )
                  }
                />{' '}
                {z.name}
              </label>
            ))}
        </fieldset>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Create plan'}
        </button>
      </form>
    </section>
  )
}
