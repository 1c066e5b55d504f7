import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import {
  cancelOrderMutation,
  confirmOrderMutation,
  createOrderMutation,
  getAllCustomersOptions,
  getOrdersOptions,
  getProductsOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { Field } from '../../components/Field'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { mergedProblems } from '../../lib/form-errors'
import { day, money } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'

/** Sales orders: the list, a new draft, and a draft confirmed or an order cancelled from its row. */
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
  const canModify = can('Orders', 'Modify')
  const working = confirm.isPending || cancel.isPending
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
      {creating && <OrderForm onDone={() => setCreating(false)} />}
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

/** A new draft order: the customer and one line (a product or a description) at a price. */
function OrderForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient()
  const customers = useQuery(getAllCustomersOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name' } }))
  const products = useQuery(getProductsOptions({ query: { Page: 1, PageSize: 100, $orderby: 'sku' } }))
  const create = useMutation({
    ...createOrderMutation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getOrders' }] }),
  })
  const [customerId, setCustomerId] = useState('')
  const [productId, setProductId] = useState('')
  const [qty, setQty] = useState('1')
  const [price, setPrice] = useState('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const problems = mergedProblems(local, create.error)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!customerId) found.customerId = 'Choose the customer.'
    if (!productId) found['lines.0'] = 'Choose a product.'
    const quantity = Number(qty)
    if (!Number.isFinite(quantity) || quantity <= 0) found['lines.0.quantity'] = 'More than 0.'
    const unitPrice = Number(price)
    if (price.trim() === '' || !Number.isFinite(unitPrice) || unitPrice < 0)
      found['lines.0.unitPrice'] = 'A price of 0 or more.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    create.mutate(
      { body: { customerId, lines: [{ productId, quantity, unitPrice }] } },
      { onSuccess: onDone },
    )
  }
  return (
    <form className="card" onSubmit={submit} noValidate aria-label="New order">
      <h2>New order</h2>
      {create.error ? <ErrorNotice error={create.error} what="Creating the order" /> : null}
      <div className="form-row">
        <Field label="Customer" problem={problems.customerId}>
          {(control) => (
            <select {...control} value={customerId} onChange={(e) => setCustomerId(e.target.value)}>
              <option value="">Choose…</option>
              {(customers.data?.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Product" problem={problems['lines.0.productId'] ?? problems['lines.0']}>
          {(control) => (
            <select {...control} value={productId} onChange={(e) => setProductId(e.target.value)}>
              <option value="">Choose…</option>
              {(products.data?.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.sku} {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Quantity" problem={problems['lines.0.quantity']}>
          {(control) => (
            <input {...control} inputMode="decimal" value={qty} onChange={(e) => setQty(e.target.value)} />
          )}
        </Field>
        <Field label="Unit price" problem={problems['lines.0.unitPrice']}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create draft order'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
