import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import {
  getAllCustomerGroupsOptions,
  getAllCustomersOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { day } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'

/** Customers: search, filter by state, kind and group, sort and page, all done by the server. */
export default function CustomerList() {
  const list = useListState({
    filters: { status: '', type: '', group: '' },
    sort: { field: 'name', descending: false },
  })
  const { status, type, group } = list.filters
  const groups = useQuery(
    getAllCustomerGroupsOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name' } }),
  )
  const filter = allOf(
    status && `status eq ${quoted(status)}`,
    type && `type eq ${quoted(type)}`,
    group && `customerGroupId eq ${group}`,
  )
  const query = list.parameters(filter)
  const customers = useQuery({
    ...getAllCustomersOptions({ query }),
    placeholderData: keepPreviousData,
  })

  return (
    <>
      <PageHeader title="Customers">
        <ExportCsvButton url="/api/v1/Customers" query={query} fileName="customers.csv" />
      </PageHeader>
      <ListToolbar label="Find customers">
        <SearchField
          hint="Name, email, phone or a contact's name"
          value={list.search}
          onChange={list.setSearch}
        />
        <ChoiceFilter
          label="State"
          value={status}
          onChange={(value) => list.setFilter('status', value)}
          choices={['Active', 'Inactive']}
        />
        <ChoiceFilter
          label="Kind"
          value={type}
          onChange={(value) => list.setFilter('type', value)}
          choices={['Company', 'Individual']}
        />
        <ChoiceFilter
          label="Group"
          value={group}
          onChange={(value) => list.setFilter('group', value)}
          choices={(groups.data?.data ?? []).map((g) => ({
            value: g.id,
            label: `${g.name} (${g.customerCount})`,
          }))}
        />
      </ListToolbar>
      <Loaded query={customers} what="Loading customers">
        {(result) => (
          <PagedTable
            label="Customers"
            result={result}
            list={list}
            rowKey={(row) => row.id}
            choosePageSize
            empty={
              list.term || filter
                ? 'No customer matches; change the search or the filters.'
                : 'No customers yet.'
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
        )}
      </Loaded>
    </>
  )
}
