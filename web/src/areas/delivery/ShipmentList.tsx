import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { getShipmentsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { DataTable, orderBy, type Sort } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { Status } from '../../components/Status'
import { day, quantity, words } from '../../lib/format'
import { useDebounced } from '../../lib/hooks'
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
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState('')
  const [date, setDate] = useState('')
  const [sort, setSort] = useState<Sort | null>({ field: 'dateCreated', descending: true })
  const [page, setPage] = useState(1)
  const term = useDebounced(search.trim())
  const filter = allOf(status && `status eq ${quoted(status)}`, date && scheduledOn(date))
  const shipments = useQuery({
    ...getShipmentsOptions({
      query: {
        Page: page,
        PageSize: 20,
        ...(term ? { $search: term } : {}),
        ...(filter ? { $filter: filter } : {}),
        ...(sort ? { $orderby: orderBy(sort) } : {}),
      },
    }),
    placeholderData: keepPreviousData,
  })
  const resetting =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value)
      setPage(1)
    }
  return (
    <>
      <p className="breadcrumb">
        <Link href="/delivery">Delivery</Link> / Shipments
      </p>
      <PageHeader title="Shipments" />
      <search className="toolbar" aria-label="Find shipments">
        <div className="grow">
          <Field label="Search" hint="Code or notes">
            {(control) => (
              <input
                {...control}
                type="search"
                value={search}
                onChange={(event) => resetting(setSearch)(event.target.value)}
              />
            )}
          </Field>
        </div>
        <Field label="State">
          {(control) => (
            <select
              {...control}
              value={status}
              onChange={(event) => resetting(setStatus)(event.target.value)}
            >
              <option value="">Any</option>
              {SHIPMENT_STATES.map((s) => (
                <option key={s} value={s}>
                  {words(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Delivery day">
          {(control) => (
            <input
              {...control}
              type="date"
              value={date}
              onChange={(event) => resetting(setDate)(event.target.value)}
            />
          )}
        </Field>
      </search>
      {shipments.error ? (
        <ErrorNotice
          error={shipments.error}
          what="Loading shipments"
          onRetry={() => void shipments.refetch()}
        />
      ) : !shipments.data ? (
        <Loading label="Loading shipments…" />
      ) : (
        <>
          <DataTable
            caption="Shipments"
            rows={shipments.data.data}
            rowKey={(row) => row.id}
            sort={sort}
            onSort={setSort}
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
          <Pager
            label="Shipments"
            page={shipments.data.page}
            finalPage={shipments.data.finalPage}
            totalCount={shipments.data.totalCount}
            pageSize={20}
            onPage={setPage}
          />
        </>
      )}
    </>
  )
}
