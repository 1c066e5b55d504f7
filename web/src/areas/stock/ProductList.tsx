import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { getProductsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { costPerUnit, money, quantity, words } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'

/** Products with their stock now; those at or below their reorder level stand out. */
export default function ProductList() {
  const { currency } = useWorkspace()
  const list = useListState({ filters: { type: '' }, sort: { field: 'sku', descending: false } })
  const { type } = list.filters
  const query = list.parameters(allOf(type && `type eq ${quoted(type)}`, 'active eq true'))
  const products = useQuery({
    ...getProductsOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const isLow = (p: { onHand: number; reorderLevel: number | null; type: string }) =>
    p.type !== 'Service' && p.reorderLevel !== null && p.onHand <= p.reorderLevel

  return (
    <>
      <PageHeader title="Products and stock">
        <ExportCsvButton url="/api/v1/products" query={query} fileName="products.csv" />
      </PageHeader>
      <ListToolbar label="Find products">
        <SearchField hint="SKU, name or barcode" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="Type"
          value={type}
          onChange={(value) => list.setFilter('type', value)}
          choices={['RawMaterial', 'Component', 'FinishedGood', 'Service']}
        />
      </ListToolbar>
      <Loaded query={products} what="Loading products">
        {(result) => (
          <>
            <PagedTable
              label="Products"
              result={result}
              list={list}
              choosePageSize
              rowKey={(row) => row.id}
              empty="No products match."
              rowClass={(row) => (isLow(row) ? 'negative' : undefined)}
              columns={[
                { key: 'sku', header: 'SKU', sortField: 'sku', nowrap: true, render: (row) => row.sku },
                {
                  key: 'name',
                  header: 'Name',
                  sortField: 'name',
                  render: (row) => <Link href={`/products/${row.id}`}>{row.name}</Link>,
                },
                { key: 'type', header: 'Type', sortField: 'type', render: (row) => words(row.type) },
                {
                  key: 'onHand',
                  header: 'On hand',
                  sortField: 'onHand',
                  number: true,
                  render: (row) =>
                    row.type === 'Service'
                      ? '—'
                      : `${quantity(row.onHand, row.unitOfMeasure)}${isLow(row) ? ' (low)' : ''}`,
                },
                {
                  key: 'reorder',
                  header: 'Reorder level',
                  sortField: 'reorderLevel',
                  number: true,
                  render: (row) => quantity(row.reorderLevel, row.unitOfMeasure),
                },
                {
                  key: 'cost',
                  header: 'Average cost',
                  number: true,
                  render: (row) => (row.type === 'Service' ? '—' : costPerUnit(row.averageCost, currency)),
                },
                {
                  key: 'price',
                  header: 'Price',
                  sortField: 'unitPrice',
                  number: true,
                  render: (row) => money(row.unitPrice, currency),
                },
              ]}
            />
            <p className="muted">Rows in red are at or below their reorder level.</p>
          </>
        )}
      </Loaded>
    </>
  )
}
