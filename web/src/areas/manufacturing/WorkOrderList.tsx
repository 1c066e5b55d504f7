import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { getWorkOrdersOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { DataTable, orderBy, type Sort } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { Status } from '../../components/Status'
import { dateTime, quantity, words } from '../../lib/format'
import { useDebounced } from '../../lib/hooks'
import { quoted } from '../../lib/odata'

export const WORK_ORDER_STATES = ['Draft', 'Released', 'InProgress', 'Completed', 'Cancelled'] as const

/** Work orders through their states: what is planned, running and done. */
export default function WorkOrderList() {
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState('')
  const [sort, setSort] = useState<Sort | null>({ field: 'dateCreated', descending: true })
  const [page, setPage] = useState(1)
  const term = useDebounced(search.trim())
  const orders = useQuery({
    ...getWorkOrdersOptions({
      query: {
        Page: page,
        PageSize: 20,
        ...(term ? { $search: term } : {}),
        ...(status ? { $filter: `status eq ${quoted(status)}` } : {}),
        ...(sort ? { $orderby: orderBy(sort) } : {}),
      },
    }),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <PageHeader title="Work orders">
        <Link className="button secondary" href="/manufacturing/boms">
          Plan one from a bill of materials
        </Link>
      </PageHeader>
      <search className="toolbar" aria-label="Find work orders">
        <div className="grow">
          <Field label="Search" hint="Code, notes, or the product's SKU or name">
            {(control) => (
              <input
                {...control}
                type="search"
                value={search}
                onChange={(event) => {
                  setSearch(event.target.value)
                  setPage(1)
                }}
              />
            )}
          </Field>
        </div>
        <Field label="State">
          {(control) => (
            <select
              {...control}
              value={status}
              onChange={(event) => {
                setStatus(event.target.value)
                setPage(1)
              }}
            >
              <option value="">Any</option>
              {WORK_ORDER_STATES.map((s) => (
                <option key={s} value={s}>
                  {words(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </search>
      {orders.error ? (
        <ErrorNotice error={orders.error} what="Loading work orders" onRetry={() => void orders.refetch()} />
      ) : !orders.data ? (
        <Loading label="Loading work orders…" />
      ) : (
        <>
          <DataTable
            caption="Work orders"
            rows={orders.data.data}
            rowKey={(row) => row.id}
            sort={sort}
            onSort={setSort}
            empty="No work order matches."
            columns={[
              {
                key: 'code',
                header: 'Code',
                sortField: 'code',
                nowrap: true,
                render: (row) => <Link href={`/manufacturing/work-orders/${row.id}`}>{row.code}</Link>,
              },
              {
                key: 'product',
                header: 'Makes',
                render: (row) => `${row.product.name} (${row.product.sku})`,
              },
              {
                key: 'qty',
                header: 'Quantity',
                sortField: 'quantity',
                number: true,
                render: (row) => quantity(row.quantity),
              },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => <Status value={row.status} />,
              },
              {
                key: 'start',
                header: 'Planned start',
                sortField: 'plannedStart',
                render: (row) => dateTime(row.plannedStart),
              },
              {
                key: 'done',
                header: 'Completed',
                sortField: 'completedAt',
                render: (row) => dateTime(row.completedAt),
              },
            ]}
          />
          <Pager
            label="Work orders"
            page={orders.data.page}
            finalPage={orders.data.finalPage}
            totalCount={orders.data.totalCount}
            pageSize={20}
            onPage={setPage}
          />
        </>
      )}
    </>
  )
}
