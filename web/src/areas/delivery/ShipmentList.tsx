import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { getShipmentsOptions, getTripsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { addShipment } from '../../api/generated/core/sdk.gen'
import { useWorkspace } from '../../app/workspace-context'
import { BulkBar, type BulkOutcome, runEach, selectColumn, useSelection } from '../../components/Bulk'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, DayFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { day, quantity } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'
import { scheduledOn } from './left-out'

export const SHIPMENT_STATES = [
  'Pending',
  'Assigned',
  'InTransit',
  'Delivered',
  'Failed',
  'Returned',
  'Cancelled',
] as const

/** A shipment can go onto a plan while it is Pending or Assigned and on no plan (the API's rule). */
const placeable = (row: { status: string; deliveryPlanId: string | null }) =>
  !row.deliveryPlanId && (row.status === 'Pending' || row.status === 'Assigned')

/** Every shipment, by state and day; the chosen ones put onto a plan. */
export default function ShipmentList() {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const canPlan = can('Shipments', 'Modify')
  const selection = useSelection()
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null)
  const [busy, setBusy] = useState(false)
  const [planId, setPlanId] = useState('')
  const planSelect = useId()
  // Plans still open to new stops: Draft and Scheduled ones, the newest first.
  const plans = useQuery({
    ...getTripsOptions({ query: { page: 1, perPage: 50 } }),
    enabled: canPlan && selection.count > 0,
  })
  const openPlans = (plans.data?.data ?? []).filter((p) => p.status === 'Draft' || p.status === 'Scheduled')
  const putOnPlan = async () => {
    if (!planId) return
    setBusy(true)
    setOutcomes(null)
    const done = await runEach(selection.chosen, (shipmentId) =>
      addShipment({ path: { deliveryPlanId: planId }, body: { shipmentId }, throwOnError: true }),
    )
    setOutcomes(done)
    selection.clear()
    setBusy(false)
    await Promise.all(
      ['getShipments', 'getTrips', 'getDispatchOverview', 'getUnassignedShipments'].map((_id) =>
        queryClient.invalidateQueries({ queryKey: [{ _id }] }),
      ),
    )
  }
  const list = useListState({
    filters: { status: '', date: '' },
    sort: { field: 'dateCreated', descending: true },
  })
  const { status, date } = list.filters
  const query = list.parameters(allOf(status && `status eq ${quoted(status)}`, date && scheduledOn(date)))
  const shipments = useQuery({
    ...getShipmentsOptions({ query }),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <p className="breadcrumb">
        <Link href="/delivery">Delivery</Link> / Shipments
      </p>
      <PageHeader title="Shipments">
        <ExportCsvButton url="/api/v1/shipments" query={query} fileName="shipments.csv" />
      </PageHeader>
      <ListToolbar label="Find shipments">
        <SearchField hint="Code or notes" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="State"
          value={status}
          onChange={(value) => list.setFilter('status', value)}
          choices={SHIPMENT_STATES}
        />
        <DayFilter label="Delivery day" value={date} onChange={(value) => list.setFilter('date', value)} />
      </ListToolbar>
      {canPlan && (
        <BulkBar selection={selection} noun="shipments" outcomes={outcomes} done="put onto the plan">
          <label htmlFor={planSelect}>Plan</label>
          <select id={planSelect} value={planId} onChange={(event) => setPlanId(event.target.value)}>
            <option value="">
              {plans.isLoading ? 'Loading plans…' : 'Choose a draft or scheduled plan…'}
            </option>
            {openPlans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.code} {p.name ?? ''} ({day(p.scheduledDate)})
              </option>
            ))}
          </select>
          <button type="button" disabled={busy || !planId} onClick={() => void putOnPlan()}>
            {busy ? 'Putting them on…' : 'Put onto the plan'}
          </button>
        </BulkBar>
      )}
      <Loaded query={shipments} what="Loading shipments">
        {(result) => (
          <PagedTable
            label="Shipments"
            result={result}
            list={list}
            choosePageSize
            rowKey={(row) => row.id}
            empty="No shipment matches."
            columns={[
              ...(canPlan ? [selectColumn(selection, result.data, (row) => row.code, placeable)] : []),
              {
                key: 'code',
                header: 'Shipment',
                sortField: 'code',
                nowrap: true,
                render: (row) => <Link href={`/delivery/shipments/${row.id}`}>{row.code}</Link>,
              },
              { key: 'to', header: 'Deliver to', render: (row) => row.deliveryAddress?.fullAddress ?? '—' },
              {
                key: 'day',
                header: 'Day',
                sortField: 'scheduledDate',
                nowrap: true,
                render: (row) => day(row.scheduledDate),
              },
              {
                key: 'weight',
                header: 'Weight (kg)',
                sortField: 'weight',
                number: true,
                render: (row) => quantity(row.weight),
              },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => <Status value={row.status} />,
              },
              {
                key: 'plan',
                header: 'Plan',
                render: (row) =>
                  row.deliveryPlanId ? (
                    <Link href={`/delivery/plans/${row.deliveryPlanId}`}>stop {row.stopSequence ?? '?'}</Link>
                  ) : (
                    'none'
                  ),
              },
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
