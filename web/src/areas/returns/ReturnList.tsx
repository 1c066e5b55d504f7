import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { getReturnsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { day, money } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'

/** Returns (RMAs): goods customers send back, by state; a return is requested from its order's page. */
export default function ReturnList() {
  const { currency } = useWorkspace()
  const list = useListState({ filters: { status: '' }, sort: { field: 'dateCreated', descending: true } })
  const filter = allOf(list.filters.status && `status eq ${quoted(list.filters.status)}`)
  const query = list.parameters(filter)
  const returns = useQuery({
    ...getReturnsOptions({ query }),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <PageHeader title="Returns">
        <ExportCsvButton url="/api/v1/returns" query={query} fileName="returns.csv" />
      </PageHeader>
      <p className="muted">
        A return is requested from a delivered shipment on its sales order&rsquo;s page.
      </p>
      <ListToolbar label="Find returns">
        <SearchField hint="Number or reason" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="State"
          value={list.filters.status}
          onChange={(value) => list.setFilter('status', value)}
          choices={['Requested', 'Received', 'WrittenOff', 'Cancelled']}
        />
      </ListToolbar>
      <Loaded query={returns} what="Loading returns">
        {(result) => (
          <PagedTable
            label="Returns"
            result={result}
            list={list}
            rowKey={(row) => row.id}
            choosePageSize
            empty={list.term || filter ? 'No return matches.' : 'No returns yet.'}
            columns={[
              {
                key: 'number',
                header: 'Return',
                sortField: 'number',
                nowrap: true,
                render: (row) => <Link href={`/returns/${row.id}`}>{row.number}</Link>,
              },
              {
                key: 'order',
                header: 'Order',
                nowrap: true,
                render: (row) =>
                  row.orderId ? <Link href={`/orders/${row.orderId}`}>{row.orderCode ?? 'order'}</Link> : '—',
              },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => <Status value={row.status} />,
              },
              { key: 'reason', header: 'Reason', render: (row) => row.reason },
              {
                key: 'created',
                header: 'Requested',
                sortField: 'dateCreated',
                nowrap: true,
                render: (row) => day(row.dateCreated),
              },
              {
                key: 'received',
                header: 'Received',
                sortField: 'receivedAt',
                nowrap: true,
                render: (row) => day(row.receivedAt),
              },
              {
                key: 'value',
                header: 'Value',
                number: true,
                sortField: 'value',
                render: (row) => money(row.value, currency),
              },
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
