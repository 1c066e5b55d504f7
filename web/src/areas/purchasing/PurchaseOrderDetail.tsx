import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  cancelPurchaseOrderMutation,
  closePurchaseOrderMutation,
  getPurchaseOrderOptions,
  getPurchaseReceiptsOptions,
  receivePurchaseOrderMutation,
  reversePurchaseReceiptMutation,
  submitPurchaseOrderMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { PurchaseOrderResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { fromLocalInput, isFuture, toLocalInput } from '../../lib/dates'
import { mergedProblems } from '../../lib/form-errors'
import { costPerUnit, dateTime, day, money, quantity } from '../../lib/format'
import { useUnits } from '../stock/units'

type Order = PurchaseOrderResponse

/** The moves a purchase order's state allows, as the API's status machine says. */
export function purchaseOrderMoves(status: Order['status']): ('submit' | 'cancel' | 'close' | 'receive')[] {
  switch (status) {
    case 'Draft':
      return ['submit', 'cancel']
    case 'Submitted':
      return ['receive', 'cancel']
    case 'PartiallyReceived':
      return ['receive', 'close']
    default:
      return []
  }
}

const INVALIDATE = [
  'getPurchaseOrder',
  'getPurchaseOrders',
  'getPurchaseReceipts',
  'getProduct',
  'getProducts',
]

/** One purchase order: its lines, its moves (submit, receive part or all, close, cancel), its receipts. */
export default function PurchaseOrderDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all(INVALIDATE.map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })))
  const order = useQuery(getPurchaseOrderOptions({ path: { purchaseOrderId: id } }))
  const submit = useMutation({ ...submitPurchaseOrderMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelPurchaseOrderMutation(), onSuccess: refresh })
  const close = useMutation({ ...closePurchaseOrderMutation(), onSuccess: refresh })
  const o = order.data?.data
  const unitOf = useUnits(o ? o.lines.map((line) => line.product.sku) : [])
  if (order.error)
    return (
      <>
        <PageHeader title="Purchase order" />
        <ErrorNotice
          error={order.error}
          what="Loading the purchase order"
          onRetry={() => void order.refetch()}
        />
        <Link href="/purchase-orders">Back to purchase orders</Link>
      </>
    )
  if (!o) return <Loading label="Loading the purchase order…" />
  const canModify = can('PurchaseOrders', 'Modify')
  const moves = canModify ? purchaseOrderMoves(o.status) : []
  const path = { path: { purchaseOrderId: id } }
  const working = submit.isPending || cancel.isPending || close.isPending
  const moveError = submit.error ?? cancel.error ?? close.error
  return (
    <>
      <p className="breadcrumb">
        <Link href="/purchase-orders">Purchase orders</Link> / {o.number}
      </p>
      <PageHeader title={`Purchase order ${o.number}`}>
        <Status value={o.status} />
      </PageHeader>
      {moveError ? <ErrorNotice error={moveError} what="Changing the purchase order" /> : null}
      <div className="actions">
        {moves.includes('submit') && (
          <button type="button" disabled={working} onClick={() => submit.mutate(path)}>
            Submit to supplier
          </button>
        )}
        {moves.includes('close') && (
          <button type="button" className="secondary" disabled={working} onClick={() => close.mutate(path)}>
            Close short (nothing more is coming)
          </button>
        )}
        {moves.includes('cancel') && (
          <button type="button" className="secondary" disabled={working} onClick={() => cancel.mutate(path)}>
            Cancel order
          </button>
        )}
      </div>
      <section className="card" aria-labelledby="po-facts">
        <h2 id="po-facts">Order</h2>
        <dl className="facts">
          <dt>Supplier</dt>
          <dd>
            <Link href={`/suppliers/${o.supplierId}`}>{o.supplier.name}</Link>
          </dd>
          <dt>Expected</dt>
          <dd>
            {day(o.expectedDate)}
            {o.isOverdue ? ' (overdue)' : ''}
          </dd>
          <dt>Total</dt>
          <dd data-testid="po-total">{money(o.total, o.currency)}</dd>
          <dt>Received so far</dt>
          <dd>{money(o.receivedTotal, o.currency)}</dd>
          <dt>Submitted</dt>
          <dd>{dateTime(o.submittedAt)}</dd>
          <dt>Notes</dt>
          <dd>{o.notes ?? '—'}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="po-lines">
        <h2 id="po-lines">Lines</h2>
        <DataTable
          caption="Purchase order lines"
          rows={o.lines}
          rowKey={(row) => row.id}
          columns={[
            { key: 'n', header: 'Line', number: true, render: (row) => row.lineNumber },
            {
              key: 'product',
              header: 'Product',
              render: (row) => (
                <Link href={`/products/${row.productId}`}>
                  {row.product.sku} {row.product.name}
                </Link>
              ),
            },
            {
              key: 'qty',
              header: 'Ordered',
              number: true,
              render: (row) => quantity(row.quantity, unitOf(row.product.sku)),
            },
            {
              key: 'got',
              header: 'Received',
              number: true,
              render: (row) => quantity(row.receivedQuantity, unitOf(row.product.sku)),
            },
            {
              key: 'open',
              header: 'Outstanding',
              number: true,
              render: (row) => quantity(row.outstandingQuantity, unitOf(row.product.sku)),
            },
            {
              key: 'cost',
              header: 'Unit cost',
              number: true,
              render: (row) => costPerUnit(row.unitCost, o.currency),
            },
            {
              key: 'total',
              header: 'Line total',
              number: true,
              render: (row) => money(row.lineTotal, o.currency),
            },
          ]}
        />
      </section>
      {moves.includes('receive') && <Receive order={o} onDone={refresh} />}
      <Receipts order={o} canModify={canModify} onDone={refresh} />
    </>
  )
}

function Receive({ order, onDone }: { order: Order; onDone: () => unknown }) {
  const receive = useMutation({ ...receivePurchaseOrderMutation(), onSuccess: onDone })
  const open = order.lines.filter((l) => l.outstandingQuantity > 0)
  const unitOf = useUnits(order.lines.map((line) => line.product.sku))
  const [amounts, setAmounts] = useState<Record<string, string>>({})
  const [when, setWhen] = useState(toLocalInput())
  const [notes, setNotes] = useState('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const problems = mergedProblems(local, receive.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    const lines: { lineId: string; quantity: number }[] = []
    order.lines.forEach((line, index) => {
      const text = (amounts[line.id] ?? '').trim()
      if (!text) return
      const q = Number(text)
      if (!Number.isFinite(q) || q <= 0) found[`lines.${index}.quantity`] = 'More than 0, or empty.'
      else if (q > line.outstandingQuantity)
        found[`lines.${index}.quantity`] =
          `At most the ${quantity(line.outstandingQuantity, unitOf(line.product.sku))} outstanding.`
      else lines.push({ lineId: line.id, quantity: q })
    })
    if (lines.length === 0 && Object.keys(found).length === 0)
      found.lines = 'Enter a quantity on at least one line.'
    const effectiveDate = fromLocalInput(when)
    if (!effectiveDate) found.effectiveDate = 'Enter a date and time.'
    else if (isFuture(effectiveDate)) found.effectiveDate = 'A receipt cannot be in the future.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    receive.mutate(
      {
        path: { purchaseOrderId: order.id },
        body: { lines, notes: notes.trim() || null, ...(effectiveDate ? { effectiveDate } : {}) },
      },
      { onSuccess: () => setAmounts({}) },
    )
  }

  return (
    <section className="card" aria-labelledby="po-receive">
      <h2 id="po-receive">Receive goods</h2>
      <form onSubmit={submit} noValidate aria-labelledby="po-receive">
        {receive.error ? <ErrorNotice error={receive.error} what="Receiving" /> : null}
        {receive.data && (
          <div className="notice ok" role="status">
            Received on {dateTime(receive.data.data.effectiveDate)}: the order is now{' '}
            {receive.data.data.purchaseOrderStatus === 'PartiallyReceived'
              ? 'partly received'
              : receive.data.data.purchaseOrderStatus.toLowerCase()}
            .
          </div>
        )}
        {problems.lines && !Object.keys(problems).some((k) => k.startsWith('lines.')) && (
          <p className="problem" role="alert">
            {problems.lines}
          </p>
        )}
        <div className="form-row">
          {order.lines.map((line, index) =>
            line.outstandingQuantity > 0 ? (
              <Field
                key={line.id}
                label={`${line.product.sku} received`}
                hint={`${quantity(line.outstandingQuantity, unitOf(line.product.sku))} outstanding`}
                problem={problems[`lines.${index}.quantity`] ?? problems[`lines.${index}`]}
              >
                {(control) => (
                  <input
                    {...control}
                    inputMode="decimal"
                    value={amounts[line.id] ?? ''}
                    onChange={(e) => setAmounts((current) => ({ ...current, [line.id]: e.target.value }))}
                  />
                )}
              </Field>
            ) : null,
          )}
        </div>
        <div className="form-row">
          <Field
            label="Received at"
            hint="May be in the past: the stock is valued from then"
            problem={problems.effectiveDate}
          >
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                max={toLocalInput()}
                value={when}
                onChange={(e) => setWhen(e.target.value)}
              />
            )}
          </Field>
          <Field label="Receipt notes" hint="e.g. the delivery note" problem={problems.notes}>
            {(control) => <input {...control} value={notes} onChange={(e) => setNotes(e.target.value)} />}
          </Field>
        </div>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() =>
              setAmounts(Object.fromEntries(open.map((l) => [l.id, String(l.outstandingQuantity)])))
            }
          >
            Fill in all outstanding
          </button>
          <button type="submit" disabled={receive.isPending}>
            {receive.isPending ? 'Receiving…' : 'Receive'}
          </button>
        </div>
      </form>
    </section>
  )
}

function Receipts({ order, canModify, onDone }: { order: Order; canModify: boolean; onDone: () => unknown }) {
  const receipts = useQuery(
    getPurchaseReceiptsOptions({ path: { purchaseOrderId: order.id }, query: { Page: 1, PageSize: 50 } }),
  )
  const reverse = useMutation({ ...reversePurchaseReceiptMutation(), onSuccess: onDone })
  const sku = (lineId: string) => order.lines.find((l) => l.id === lineId)?.product.sku ?? ''
  const unitOf = useUnits(order.lines.map((line) => line.product.sku))
  return (
    <section className="card" aria-labelledby="po-receipts">
      <h2 id="po-receipts">Receipts</h2>
      {reverse.error ? <ErrorNotice error={reverse.error} what="Reversing the receipt" /> : null}
      {receipts.error ? (
        <ErrorNotice error={receipts.error} onRetry={() => void receipts.refetch()} />
      ) : !receipts.data ? (
        <Loading />
      ) : (
        <DataTable
          caption="Receipts"
          rows={receipts.data.data}
          rowKey={(row) => row.id}
          empty="Nothing received yet."
          columns={[
            {
              key: 'when',
              header: 'Received at',
              nowrap: true,
              render: (row) => dateTime(row.effectiveDate),
            },
            {
              key: 'what',
              header: 'Goods',
              render: (row) =>
                row.lines
                  .map((l) => `${quantity(l.quantity, unitOf(sku(l.lineId)))} ${sku(l.lineId)}`)
                  .join(', '),
            },
            { key: 'notes', header: 'Notes', render: (row) => row.notes ?? '—' },
            {
              key: 'state',
              header: 'State',
              render: (row) =>
                row.reversedAt ? `Reversed ${dateTime(row.reversalEffectiveDate)}` : 'Posted',
            },
            ...(canModify
              ? [
                  {
                    key: 'reverse',
                    header: 'Reverse',
                    render: (row: { id: string; reversedAt: string | null; effectiveDate: string }) =>
                      row.reversedAt ? null : (
                        <button
                          type="button"
                          className="secondary"
                          disabled={reverse.isPending}
                          aria-label={`Reverse the receipt of ${dateTime(row.effectiveDate)}`}
                          onClick={() =>
                            reverse.mutate({
                              path: { purchaseOrderId: order.id, receiptId: row.id },
                              body: {},
                            })
                          }
                        >
                          Reverse
                        </button>
                      ),
                  },
                ]
              : []),
          ]}
        />
      )}
    </section>
  )
}
