import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import {
  getAllCustomerGroupsOptions,
  getAllCustomersOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { DataTable, orderBy, type Sort } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { Status } from '../../components/Status'
import { day } from '../../lib/format'
import { useDebounced } from '../../lib/hooks'
import { allOf, quoted } from '../../lib/odata'

/** Customers: search, filter by state, kind and group, sort and page, all done by the server. */
export default function CustomerList() {
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState('')
  const [type, setType] = useState('')
  const [group, setGroup] = useState('')
  const [sort, setSort] = useState<Sort | null>({ field: 'name', descending: false })
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(20)
  const term = useDebounced(search.trim())
  const groups = useQuery(
    getAllCustomerGroupsOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name' } }),
  )
  const filter = allOf(
    status && `status eq ${quoted(status)}`,
    type && `type eq ${quoted(type)}`,
    group && `customerGroupId eq ${group}`,
  )
  const customers = useQuery({
    ...getAllCustomersOptions({
      query: {
        Page: page,
        PageSize: pageSize,
        ...(term ? { $search: term } : {}),
        ...(filter ? { $filter: filter } : {}),
        ...(sort ? { $orderby: orderBy(sort) } : {}),
      },
    }),
    placeholderData: keepPreviousData,
  })
  const reset =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value)
      setPage(1)
    }

  return (
    <>
      <PageHeader title="Customers" />
      <search className="toolbar" aria-label="Find customers">
        <div className="grow">
          <Field label="Search" hint="Name, email, phone or a contact's name">
            {(control) => (
              <input
                {...control}
                type="search"
                value={search}
                onChange={(event) => reset(setSearch)(event.target.value)}
              />
            )}
          </Field>
        </div>
        <Field label="State">
          {(control) => (
            <select {...control} value={status} onChange={(event) => reset(setStatus)(event.target.value)}>
              <option value="">Any</option>
              <option value="Active">Active</option>
              <option value="Inactive">Inactive</option>
            </select>
          )}
        </Field>
        <Field label="Kind">
          {(control) => (
            <select {...control} value={type} onChange={(event) => reset(setType)(event.target.value)}>
              <option value="">Any</option>
              <option value="Company">Company</option>
              <option value="Individual">Individual</option>
            </select>
          )}
        </Field>
        <Field label="Group">
          {(control) => (
            <select {...control} value={group} onChange={(event) => reset(setGroup)(event.target.value)}>
              <option value="">Any</option>
              {groups.data?.data.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name} ({g.customerCount})
                </option>
              ))}
            </select>
          )}
        </Field>
      </search>
      {customers.error ? (
        <ErrorNotice
          error={customers.error}
          what="Loading customers"
          onRetry={() => void customers.refetch()}
        />
      ) : !customers.data ? (
        <Loading label="Loading customers…" />
      ) : (
        <>
          <DataTable
            caption="Customers"
            rows={customers.data.data}
            rowKey={(row) => row.id}
            sort={sort}
            onSort={(next) => {
              setSort(next)
              setPage(1)
            }}
            empty={
              term || filter ? 'No customer matches; change the search or the filters.' : 'No customers yet.'
            }
            columns={[
              { key: 'code', header: 'Code', sortField: 'code', nowrap: true, render: (row) => row.code },
              {
                key: 'name',
                header: 'Name',
                sortField: 'name',
                render: (row) => <Link href={`/customers/${row.id}`}>{row.name}</Link>,
              },
              { key: 'email', header: 'Email', sortField: 'email', render: (row) => row.email ?? '—' },
              { key: 'type', header: 'Kind', sortField: 'type', render: (row) => row.type },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => <Status value={row.status} />,
              },
              {
                key: 'contact',
                header: 'Primary contact',
                render: (row) => {
                  const c = row.contacts[0]
                  return c ? `${c.firstName} ${c.lastName ?? ''}`.trim() : '—'
                },
              },
              {
                key: 'created',
                header: 'Since',
                sortField: 'dateCreated',
                nowrap: true,
                render: (row) => day(row.dateCreated),
              },
            ]}
          />
          <Pager
            label="Customers"
            page={customers.data.page}
            finalPage={customers.data.finalPage}
            totalCount={customers.data.totalCount}
            pageSize={pageSize}
            onPage={setPage}
            onPageSize={reset(setPageSize)}
          />
        </>
      )}
    </>
  )
}
