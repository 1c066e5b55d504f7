import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { getShipmentsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
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

/** Every shipment, by state and day. */
export default function ShipmentList() {
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
