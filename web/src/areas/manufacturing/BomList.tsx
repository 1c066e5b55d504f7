import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { getBomsOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { DataTable, orderBy, type Sort } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { Status } from '../../components/Status'
import { day, quantity } from '../../lib/format'
import { useDebounced } from '../../lib/hooks'
import { quoted } from '../../lib/odata'

/** Bills of materials: what each product is made of, revision by revision. */
export default function BomList() {
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState('')
  const [sort, setSort] = useState<Sort | null>({ field: 'code', descending: false })
  const [page, setPage] = useState(1)
  const term = useDebounced(search.trim())
  const boms = useQuery({
    ...getBomsOptions({
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
      <PageHeader title="Bills of materials" />
      <search className="toolbar" aria-label="Find bills of materials">
        <div className="grow">
          <Field label="Search" hint="Code, name, or the product's SKU or name">
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
              <option>Draft</option>
              <option>Active</option>
              <option>Archived</option>
            </select>
          )}
        </Field>
      </search>
      {boms.error ? (
        <ErrorNotice
          error={boms.error}
          what="Loading bills of materials"
          onRetry={() => void boms.refetch()}
        />
      ) : !boms.data ? (
        <Loading label="Loading bills of materials…" />
      ) : (
        <>
          <DataTable
            caption="Bills of materials"
            rows={boms.data.data}
            rowKey={(row) => row.id}
            sort={sort}
            onSort={setSort}
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
              { key: 'output', header: 'Batch', number: true, render: (row) => quantity(row.outputQuantity) },
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
          <Pager
            label="Bills of materials"
            page={boms.data.page}
            finalPage={boms.data.finalPage}
            totalCount={boms.data.totalCount}
            pageSize={20}
            onPage={setPage}
          />
        </>
      )}
    </>
  )
}
