import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useLocation } from 'wouter'
import {
  createPurchaseOrderMutation,
  createPurchaseOrdersFromReorderSuggestionsMutation,
  getProductsOptions,
  getPurchaseOrdersOptions,
  getReorderSuggestionsOptions,
  getSuppliersOptions,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { ExportCsvButton } from '../../components/ExportCsvButton'
import { Field } from '../../components/Field'
import { ChoiceFilter, ListToolbar, SearchField } from '../../components/ListToolbar'
import { Loaded } from '../../components/Loaded'
import { PagedTable } from '../../components/PagedTable'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { mergedProblems } from '../../lib/form-errors'
import { costPerUnit, day, money, quantity } from '../../lib/format'
import { useListState } from '../../lib/list-state'
import { allOf, quoted } from '../../lib/odata'

export const PO_STATES = ['Draft', 'Submitted', 'PartiallyReceived', 'Received', 'Closed', 'Cancelled']

/** Purchase orders: the list, a new draft, and drafts from the reorder suggestions. */
export default function PurchaseOrderList() {
  const { can } = useWorkspace()
  const list = useListState({ filters: { status: '', supplier: '' } })
  const suppliers = useQuery(getSuppliersOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name' } }))
  const filter = allOf(
    list.filters.status && `status eq ${quoted(list.filters.status)}`,
    list.filters.supplier && `supplierId eq ${list.filters.supplier}`,
  )
  const query = list.parameters(filter)
  const orders = useQuery({
    ...getPurchaseOrdersOptions({ query }),
    placeholderData: keepPreviousData,
  })
  const [creating, setCreating] = useState(false)
  const canModify = can('PurchaseOrders', 'Modify')
  return (
    <>
      <PageHeader title="Purchase orders">
        <ExportCsvButton url="/api/v1/purchase-orders" query={query} fileName="purchase-orders.csv" />
        {canModify && !creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New purchase order
          </button>
        )}
      </PageHeader>
      {creating && <PurchaseOrderForm onDone={() => setCreating(false)} />}
      <ListToolbar label="Find purchase orders">
        <SearchField hint="Number, notes or supplier" value={list.search} onChange={list.setSearch} />
        <ChoiceFilter
          label="State"
          value={list.filters.status}
          onChange={(value) => list.setFilter('status', value)}
          choices={PO_STATES}
        />
        <ChoiceFilter
          label="Supplier"
          value={list.filters.supplier}
          onChange={(value) => list.setFilter('supplier', value)}
          choices={(suppliers.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
        />
      </ListToolbar>
      <Loaded query={orders} what="Loading purchase orders">
        {(result) => (
          <PagedTable
            label="Purchase orders"
            result={result}
            list={list}
            rowKey={(row) => row.id}
            choosePageSize
            empty={list.term || filter ? 'No purchase order matches.' : 'No purchase orders yet.'}
            columns={[
              {
                key: 'number',
                header: 'Number',
                sortField: 'number',
                nowrap: true,
                render: (row) => <Link href={`/purchase-orders/${row.id}`}>{row.number}</Link>,
              },
              { key: 'supplier', header: 'Supplier', render: (row) => row.supplier.name },
              {
                key: 'status',
                header: 'State',
                sortField: 'status',
                render: (row) => (
                  <>
                    <Status value={row.status} />
                    {row.isOverdue ? ' (overdue)' : ''}
                  </>
                ),
              },
              {
                key: 'expected',
                header: 'Expected',
                sortField: 'expectedDate',
                nowrap: true,
                render: (row) => day(row.expectedDate),
              },
              {
                key: 'total',
                header: 'Total',
                number: true,
                sortField: 'total',
                render: (row) => money(row.total, row.currency),
              },
            ]}
          />
        )}
      </Loaded>
      {canModify && <ReorderSuggestions />}
    </>
  )
}

function ReorderSuggestions() {
  const queryClient = useQueryClient()
  const suggestions = useQuery(getReorderSuggestionsOptions({ query: { Page: 1, PageSize: 50 } }))
  const draft = useMutation({
    ...createPurchaseOrdersFromReorderSuggestionsMutation(),
    onSuccess: () =>
      Promise.all(
        ['getPurchaseOrders', 'getReorderSuggestions'].map((_id) =>
          queryClient.invalidateQueries({ queryKey: [{ _id }] }),
        ),
      ),
  })
  return (
    <section className="card" aria-labelledby="po-reorder">
      <h2 id="po-reorder">Reorder suggestions</h2>
      <p className="muted">Products at or below their reorder level, with their preferred supplier.</p>
      {suggestions.error ? (
        <ErrorNotice error={suggestions.error} onRetry={() => void suggestions.refetch()} />
      ) : !suggestions.data ? null : (
        <DataTable
          caption="Reorder suggestions"
          rows={suggestions.data.data}
          rowKey={(row) => row.productId}
          empty="Nothing is at or below its reorder level."
          columns={[
            {
              key: 'product',
              header: 'Product',
              render: (row) => (
                <Link href={`/products/${row.productId}`}>
                  {row.productSku} {row.productName}
                </Link>
              ),
            },
            {
              key: 'onHand',
              header: 'On hand',
              number: true,
              render: (row) => quantity(row.onHand, row.unitOfMeasure),
            },
            {
              key: 'level',
              header: 'Reorder level',
              number: true,
              render: (row) => quantity(row.reorderLevel, row.unitOfMeasure),
            },
            {
              key: 'suggested',
              header: 'Suggested',
              number: true,
              render: (row) => quantity(row.suggestedQuantity, row.unitOfMeasure),
            },
            {
              key: 'supplier',
              header: 'Preferred supplier',
              render: (row) => row.preferredSupplier?.name ?? 'none: set one on a supplier',
            },
            {
              key: 'cost',
              header: 'Unit cost',
              number: true,
              render: (row) => costPerUnit(row.unitCost, row.preferredSupplier?.currency),
            },
          ]}
        />
      )}
      {draft.error ? <ErrorNotice error={draft.error} what="Drafting purchase orders" /> : null}
      {draft.data && (
        <div className="notice ok" role="status">
          {draft.data.data.purchaseOrders.length === 0
            ? 'No draft made: no suggestion has a preferred supplier.'
            : `Drafted ${draft.data.data.purchaseOrders.map((o) => o.number).join(', ')}: check and submit them.`}
        </div>
      )}
      <button
        type="button"
        disabled={draft.isPending || (suggestions.data?.data.length ?? 0) === 0}
        onClick={() => draft.mutate({ body: {} })}
      >
        {draft.isPending ? 'Drafting…' : 'Draft purchase orders from these'}
      </button>
    </section>
  )
}

interface LineDraft {
  key: number
  productId: string
  quantity: string
  unitCost: string
}

/** A new draft purchase order: the supplier, when it is expected, and its lines. */
function PurchaseOrderForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const suppliers = useQuery(
    getSuppliersOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name', $filter: 'isActive eq true' } }),
  )
  const products = useQuery(getProductsOptions({ query: { Page: 1, PageSize: 100, $orderby: 'sku' } }))
  const create = useMutation({
    ...createPurchaseOrderMutation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getPurchaseOrders' }] }),
  })
  const [supplierId, setSupplierId] = useState('')
  const [expected, setExpected] = useState('')
  const [notes, setNotes] = useState('')
  const [lines, setLines] = useState<LineDraft[]>([{ key: 1, productId: '', quantity: '', unitCost: '' }])
  const [local, setLocal] = useState<Record<string, string>>({})
  const problems = mergedProblems(local, create.error)
  const stocked = (products.data?.data ?? []).filter((p) => p.type !== 'Service')
  const setLine = (key: number, change: Partial<LineDraft>) =>
    setLines((current) => current.map((l) => (l.key === key ? { ...l, ...change } : l)))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!supplierId) found.supplierId = 'Choose the supplier.'
    lines.forEach((line, index) => {
      if (!line.productId) found[`lines.${index}.productId`] = 'Choose a product.'
      const q = Number(line.quantity)
      if (!line.quantity || !Number.isFinite(q) || q <= 0) found[`lines.${index}.quantity`] = 'More than 0.'
      if (line.unitCost.trim() !== '' && !(Number(line.unitCost) >= 0))
        found[`lines.${index}.unitCost`] = 'A cost of 0 or more, or empty.'
    })
    if (lines.length === 0) found.lines = 'Add at least one line.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    create.mutate(
      {
        body: {
          supplierId,
          expectedDate: expected || null,
          notes: notes.trim() || null,
          lines: lines.map((l) => ({
            productId: l.productId,
            quantity: Number(l.quantity),
            ...(l.unitCost.trim() ? { unitCost: Number(l.unitCost) } : {}),
          })),
        },
      },
      {
        onSuccess: (created) => {
          onDone()
          navigate(`/purchase-orders/${created.data.id}`)
        },
      },
    )
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-label="New purchase order">
      <h2>New purchase order</h2>
      {create.error ? <ErrorNotice error={create.error} what="Creating the purchase order" /> : null}
      <div className="form-row">
        <Field label="Supplier" problem={problems.supplierId}>
          {(control) => (
            <select {...control} value={supplierId} onChange={(e) => setSupplierId(e.target.value)}>
              <option value="">Choose…</option>
              {(suppliers.data?.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Expected on" problem={problems.expectedDate}>
          {(control) => (
            <input {...control} type="date" value={expected} onChange={(e) => setExpected(e.target.value)} />
          )}
        </Field>
        <Field label="Notes" problem={problems.notes}>
          {(control) => <input {...control} value={notes} onChange={(e) => setNotes(e.target.value)} />}
        </Field>
      </div>
      <fieldset>
        <legend>Lines</legend>
        {problems.lines && !Object.keys(problems).some((k) => k.startsWith('lines.')) && (
          <p className="problem">{problems.lines}</p>
        )}
        {lines.map((line, index) => (
          <div className="form-row" key={line.key}>
            <Field
              label={`Line ${index + 1} product`}
              problem={problems[`lines.${index}.productId`] ?? problems[`lines.${index}`]}
            >
              {(control) => (
                <select
                  {...control}
                  value={line.productId}
                  onChange={(e) => setLine(line.key, { productId: e.target.value })}
                >
                  <option value="">Choose…</option>
                  {stocked.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.sku} {p.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={`Line ${index + 1} quantity`} problem={problems[`lines.${index}.quantity`]}>
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  value={line.quantity}
                  onChange={(e) => setLine(line.key, { quantity: e.target.value })}
                />
              )}
            </Field>
            <Field
              label={`Line ${index + 1} unit cost`}
              hint="Empty: the supplier's cost"
              problem={problems[`lines.${index}.unitCost`]}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  value={line.unitCost}
                  onChange={(e) => setLine(line.key, { unitCost: e.target.value })}
                />
              )}
            </Field>
            <div className="field">
              <button
                type="button"
                className="secondary"
                aria-label={`Remove line ${index + 1}`}
                disabled={lines.length === 1}
                onClick={() => setLines((current) => current.filter((l) => l.key !== line.key))}
              >
                Remove line
              </button>
            </div>
          </div>
        ))}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            setLines((current) => [
              ...current,
              {
                key: Math.max(0, ...current.map((l) => l.key)) + 1,
                productId: '',
                quantity: '',
                unitCost: '',
              },
            ])
          }
        >
          Add a line
        </button>
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create draft'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
