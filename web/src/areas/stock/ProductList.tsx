import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { getProductsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable, orderBy, type Sort } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { money, quantity, words } from '../../lib/format'
import { useDebounced } from '../../lib/hooks'
import { allOf, quoted } from '../../lib/odata'

/** Products with their stock now; those at or below their reorder level stand out. */
export default function ProductList() {
  const { currency } = useWorkspace()
  const [search, setSearch] = useState('')
  const [type, setType] = useState('')
  const [sort, setSort] = useState<Sort | null>({ field: 'sku', descending: false })
  const [page, setPage] = useState(1)
  const term = useDebounced(search.trim())
  const filter = allOf(type && `type eq ${quoted(type)}`, 'active eq true')
  const products = useQuery({
    ...getProductsOptions({
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
  const isLow = (p: { onHand: number; reorderLevel: number | null; type: string }) =>
    p.type !== 'Service' && p.reorderLevel !== null && p.onHand <= p.reorderLevel

  return (
    <>
      <PageHeader title="Products and stock" />
      <search className="toolbar" aria-label="Find products">
        <div className="grow">
          <Field label="Search" hint="SKU, name or barcode">
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
        <Field label="Type">
          {(control) => (
            <select
              {...control}
              value={type}
              onChange={(event) => {
                setType(event.target.value)
                setPage(1)
              }}
            >
              <option value="">Any</option>
              {['RawMaterial', 'Component', 'FinishedGood', 'Service'].map((t) => (
                <option key={t} value={t}>
                  {words(t)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </search>
      {products.error ? (
        <ErrorNotice error={products.error} what="Loading products" onRetry={() => void products.refetch()} />
      ) : !products.data ? (
        <Loading label="Loading products…" />
      ) : (
        <>
          <DataTable
            caption="Products"
            rows={products.data.data}
            rowKey={(row) => row.id}
            sort={sort}
            onSort={setSort}
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
                    : `${quantity(row.onHand)} ${row.unitOfMeasure}${isLow(row) ? ' (low)' : ''}`,
              },
              {
                key: 'reorder',
                header: 'Reorder level',
                sortField: 'reorderLevel',
                number: true,
                render: (row) => quantity(row.reorderLevel),
              },
              {
                key: 'cost',
                header: 'Average cost',
                number: true,
                render: (row) => (row.type === 'Service' ? '—' : money(row.averageCost, currency)),
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
          <Pager
            label="Products"
            page={products.data.page}
            finalPage={products.data.finalPage}
            totalCount={products.data.totalCount}
            pageSize={20}
            onPage={setPage}
          />
          <p className="muted">Rows in red are at or below their reorder level.</p>
        </>
      )}
    </>
  )
}
