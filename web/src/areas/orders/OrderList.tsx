import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import {
  cancelOrderMutation,
  confirmOrderMutation,
  getOrdersOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { confirmOrder } from '../../api/generated/core/sdk.gen'
import { useWorkspace } from '../../app/workspace-context'
import { BulkBar, type BulkOutcome, runEach, selectColumn, useSelection } from '../../components/Bulk'
import { ErrorNotice } from '../../components/ErrorNotice'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { day, money } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'
import { OrderForm } from './OrderForm'

/**
 * Sales orders: the list, a new draft, a draft confirmed or an order cancelled from its row, and
 * the chosen drafts confirmed together.
 */
export default function OrderList() {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const list = useListState({ filters: { status: '' }, sort: { field: 'orderDate', descending: true } })
  const filter = allOf(list.filters.status && `status eq ${quoted(list.filters.status)}`)
  const query = list.parameters(filter)
  const orders = useQuery({
    ...getOrdersOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getOrders' }] })
  const confirm = useMutation({ ...confirmOrderMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelOrderMutation(), onSuccess: refresh })
  const [creating, setCreating] = useState(false)
  const [, go] = useLocation()
  const canModify = can('Orders', 'Modify')
  const selection = useSelection()
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null)
  const [bulkBusy, setBulkBusy] = useState(false)
  const working = confirm.isPending || cancel.isPending || bulkBusy
  const confirmChosen = async () => {
    setBulkBusy(true)
    setOutcomes(null)
    const done = await runEach(selection.chosen, (orderId) =>
      confirmOrder({ path: { orderId }, throwOnError: true }),
    )
    setOutcomes(done)
    selection.clear()
    setBulkBusy(false)
    await refresh()
  }
  return (
    <>
      <PageHeader title="Sales orders">
        <ExportCsvButton url="/api/v1/orders" query={query} fileName="orders.csv" />
        {canModify && !creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New order
          </button>
        )}
      </PageHeader>
      {creating && (
        <OrderForm
          onDone={(orderId) => {
            setCreating(false)
            if (orderId) go(`/orders/${orderId}`)
          }}
        />
      )}
      {confirm.error || cancel.error ? (
        <ErrorNotice error={confirm.error ?? cancel.error} what="Changing the order" />
      ) : null}
      <ListToolbar label="Find orders">
        <SearchField hint="Code or customer" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="State"
          value={list.filters.status}
          onChange={(value) => list.setFilter('status', value)}
          choices={['Draft', 'Confirmed', 'Fulfilled', 'Cancelled']}
        />
      </ListToolbar>
      {canModify && (
        <BulkBar selection={selection} noun="orders" outcomes={outcomes} done="confirmed">
          <button type="button" disabled={working} onClick={() => void confirmChosen()}>
            {bulkBusy ? 'Confirming…' : 'Confirm the chosen drafts'}
          </button>
        </BulkBar>
      )}
      <Loaded query={orders} what="Loading orders">
        {(result) => (
          <PagedTable
            label="Sales orders"
            result={result}
            list={list}
            rowKey={(row) => row.id}
            choosePageSize
            empty={list.term || filter ? 'No order matches.' : 'No orders yet.'}
            columns={[
              ...(canModify
                ? [
                    selectColumn(
                      selection,
                      result.data,
                      (row) => row.code,
                      (row) => row.status === 'Draft',
                    ),
                  ]
                : []),
              {
                key: 'code',
                header: 'Code',
                sortField: 'code',
                nowrap: true,
                render: (row) => <Link href={`/orders/${row.id}`}>{row.code}</Link>,
              },
              {
                key: 'customer',
                header: 'Customer',
                render: (row) => <Link href={`/customers/${row.customerId}`}>{row.customer.name}</Link>,
              },
              {
                key: 'date',
                header: 'Date',
                sortField: 'orderDate',
                nowrap: true,
                render: (row) => day(row.orderDate),
              },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => <Status value={row.status} />,
              },
              {
                key: 'total',
                header: 'Total',
                number: true,
                sortField: 'total',
                render: (row) => money(row.total, row.currency),
              },
              ...(canModify
                ? [
                    {
                      key: 'moves',
                      header: 'Actions',
                      render: (row: { id: string; code: string; status: string }) => (
                        <span className="actions">
                          {row.status === 'Draft' && (
                            <button
                              type="button"
                              disabled={working}
                              aria-label={`Confirm ${row.code}`}
                              onClick={() => confirm.mutate({ path: { orderId: row.id } })}
                            >
                              Confirm
                            </button>
                          )}
                          {(row.status === 'Draft' || row.status === 'Confirmed') && (
                            <button
                              type="button"
                              className="secondary"
                              disabled={working}
                              aria-label={`Cancel ${row.code}`}
                              onClick={() => cancel.mutate({ path: { orderId: row.id } })}
                            >
                              Cancel
                            </button>
                          )}
                        </span>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
