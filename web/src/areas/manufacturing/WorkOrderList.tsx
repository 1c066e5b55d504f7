import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { getWorkOrdersOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { dateTime, quantity } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { quoted } from '../../lib/odata'
import { useUnits } from '../stock/units'

export const WORK_ORDER_STATES = ['Draft', 'Released', 'InProgress', 'Completed', 'Cancelled'] as const

/** Work orders through their states: what is planned, running and done. */
export default function WorkOrderList() {
  const list = useListState({ filters: { status: '' }, sort: { field: 'dateCreated', descending: true } })
  const { status } = list.filters
  const query = list.parameters(status ? `status eq ${quoted(status)}` : undefined)
  const orders = useQuery({
    ...getWorkOrdersOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const unitOf = useUnits(orders.data?.data.map((row) => row.product.sku) ?? [])
  return (
    <>
      <PageHeader title="Work orders">
        <ExportCsvButton url="/api/v1/work-orders" query={query} fileName="work-orders.csv" />
        <Link className="button secondary" href="/manufacturing/boms">
          Plan one from a bill of materials
        </Link>
      </PageHeader>
      <ListToolbar label="Find work orders">
        <SearchField
          hint="Code, notes, or the product's SKU or name"
          value={list.search}
          onChange={list.setSearch}
        />
        <ChoiceFilter
          label="State"
          value={status}
          onChange={(value) => list.setFilter('status', value)}
          choices={WORK_ORDER_STATES}
        />
      </ListToolbar>
      <Loaded query={orders} what="Loading work orders">
        {(result) => (
          <PagedTable
            label="Work orders"
            result={result}
            list={list}
            choosePageSize
            rowKey={(row) => row.id}
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
                render: (row) => quantity(row.quantity, unitOf(row.product.sku)),
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
        )}
      </Loaded>
    </>
  )
}
