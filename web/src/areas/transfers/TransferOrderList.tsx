import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { getTransferOrdersOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { dateTime, money } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'

/** Stock moving between this business and its others: outgoing and incoming, in transit or not. */
export default function TransferOrderList() {
  const { me, currency } = useWorkspace()
  const list = useListState({ filters: { status: '' } })
  const filter = allOf(list.filters.status && `status eq ${quoted(list.filters.status)}`)
  const query = list.parameters(filter)
  const transfers = useQuery({
    ...getTransferOrdersOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const businessName = (id: string) =>
    me.businesses.find((b) => b.id === id)?.displayName ?? 'another business'
  return (
    <>
      <PageHeader title="Transfer orders">
        <ExportCsvButton url="/api/v1/transfer-orders" query={query} fileName="transfer-orders.csv" />
      </PageHeader>
      <ListToolbar label="Find transfer orders">
        <SearchField hint="Number or notes" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="State"
          value={list.filters.status}
          onChange={(value) => list.setFilter('status', value)}
          choices={['Draft', 'Shipped', 'PartiallyReceived', 'Received', 'Cancelled']}
        />
      </ListToolbar>
      <Loaded query={transfers} what="Loading transfer orders">
        {(result) => (
          <PagedTable
            label="Transfer orders"
            result={result}
            list={list}
            choosePageSize
            rowKey={(row) => row.id}
            empty={list.term || filter ? 'No transfer order matches.' : 'No transfer orders yet.'}
            columns={[
              {
                key: 'number',
                header: 'Number',
                nowrap: true,
                render: (row) => <Link href={`/transfer-orders/${row.id}`}>{row.number}</Link>,
              },
              { key: 'direction', header: 'Direction', render: (row) => row.direction },
              { key: 'from', header: 'From', render: (row) => businessName(row.sourceBusinessId) },
              { key: 'to', header: 'To', render: (row) => businessName(row.destinationBusinessId) },
              { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
              { key: 'shipped', header: 'Shipped', nowrap: true, render: (row) => dateTime(row.shippedAt) },
              {
                key: 'transit',
                header: 'Value in transit',
                number: true,
                render: (row) => money(row.valueInTransit, currency),
              },
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
