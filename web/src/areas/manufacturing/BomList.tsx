import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { getBomsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { day, quantity } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { quoted } from '../../lib/odata'
import { useUnits } from '../stock/units'

/** Bills of materials: what each product is made of, revision by revision. */
export default function BomList() {
  const list = useListState({ filters: { status: '' }, sort: { field: 'code', descending: false } })
  const { status } = list.filters
  const query = list.parameters(status ? `status eq ${quoted(status)}` : undefined)
  const boms = useQuery({
    ...getBomsOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const unitOf = useUnits(boms.data?.data.map((row) => row.product.sku) ?? [])
  return (
    <>
      <PageHeader title="Bills of materials">
        <ExportCsvButton url="/api/v1/bom" query={query} fileName="boms.csv" />
      </PageHeader>
      <ListToolbar label="Find bills of materials">
        <SearchField
          hint="Code, name, or the product's SKU or name"
          value={list.search}
          onChange={list.setSearch}
        />
        <ChoiceFilter
          label="State"
          value={status}
          onChange={(value) => list.setFilter('status', value)}
          choices={['Draft', 'Active', 'Archived']}
        />
      </ListToolbar>
      <Loaded query={boms} what="Loading bills of materials">
        {(result) => (
          <PagedTable
            label="Bills of materials"
            result={result}
            list={list}
            choosePageSize
            rowKey={(row) => row.id}
            empty="No bill of materials matches."
            columns={[
              {
                key: 'code',
                header: 'Code',
                sortField: 'code',
                nowrap: true,
                render: (row) => `${row.code} r${row.revision}`,
              },
              {
                key: 'name',
                header: 'Name',
                sortField: 'name',
                render: (row) => <Link href={`/manufacturing/boms/${row.id}`}>{row.name}</Link>,
              },
              {
                key: 'product',
                header: 'Makes',
                render: (row) => `${row.product.name} (${row.product.sku})`,
              },
              {
                key: 'output',
                header: 'Batch',
                number: true,
                render: (row) => quantity(row.outputQuantity, unitOf(row.product.sku)),
              },
              { key: 'lines', header: 'Lines', number: true, render: (row) => row.lineItems.length },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => <Status value={row.status} />,
              },
              { key: 'active', header: 'Activated', nowrap: true, render: (row) => day(row.activatedAt) },
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
