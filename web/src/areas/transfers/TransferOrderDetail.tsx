import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  cancelTransferOrderMutation,
  getTransferOrderOptions,
  receiveTransferOrderMutation,
  shipTransferOrderMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { TransferOrderResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { fromLocalInput, isFuture, toLocalInput } from '../../lib/dates'
import { mergedProblems } from '../../lib/form-errors'
import { dateTime, money, quantity } from '../../lib/format'
import { useUnits } from '../stock/units'

type Transfer = TransferOrderResponse
const INVALIDATE = ['getTransferOrder', 'getTransferOrders', 'getProduct', 'getProducts']

/** One transfer: the sending business ships it, the receiving one receives part or all of it. */
export default function TransferOrderDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can, me, currency } = useWorkspace()
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all(INVALIDATE.map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })))
  const transfer = useQuery(getTransferOrderOptions({ path: { transferOrderId: id } }))
  const ship = useMutation({ ...shipTransferOrderMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelTransferOrderMutation(), onSuccess: refresh })
  const [when, setWhen] = useState(toLocalInput())
  const t = transfer.data?.data
  // Units are the current business's: the source product when sending, the destination's when receiving.
  const ours = (line: Transfer['lines'][number]) =>
    t?.direction === 'Outgoing' ? line.product.sku : line.destinationProduct.sku
  const unitOf = useUnits(t ? t.lines.map(ours) : [])
  if (transfer.error)
    return (
      <>
        <PageHeader title="Transfer order" />
        <ErrorNotice
          error={transfer.error}
          what="Loading the transfer order"
          onRetry={() => void transfer.refetch()}
        />
        <Link href="/transfer-orders">Back to transfer orders</Link>
      </>
    )
  if (!t) return <Loading label="Loading the transfer order…" />
  const canModify = can('TransferOrders', 'Modify')
  const name = (businessId: string) =>
    me.businesses.find((b) => b.id === businessId)?.displayName ?? 'another business'
  const outgoing = t.direction === 'Outgoing'
  const moveError = ship.error ?? cancel.error
  return (
    <>
      <p className="breadcrumb">
        <Link href="/transfer-orders">Transfer orders</Link> / {t.number}
      </p>
      <PageHeader title={`Transfer ${t.number}`}>
        <Status value={t.status} />
      </PageHeader>
      {moveError ? <ErrorNotice error={moveError} what="Changing the transfer" /> : null}
      {canModify && outgoing && t.status === 'Draft' && (
        <form
          className="card"
          aria-label="Ship the transfer"
          onSubmit={(event: FormEvent) => {
            event.preventDefault()
            const effectiveDate = fromLocalInput(when)
            ship.mutate({ path: { transferOrderId: id }, body: effectiveDate ? { effectiveDate } : {} })
          }}
        >
          <Field label="Shipped at" hint="May be in the past">
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
          <div className="actions">
            <button type="submit" disabled={ship.isPending}>
              {ship.isPending ? 'Shipping…' : 'Ship'}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate({ path: { transferOrderId: id } })}
            >
              Cancel transfer
            </button>
          </div>
        </form>
      )}
      <section className="card" aria-labelledby="t-facts">
        <h2 id="t-facts">Transfer</h2>
        <dl className="facts">
          <dt>From</dt>
          <dd>{name(t.sourceBusinessId)}</dd>
          <dt>To</dt>
          <dd>{name(t.destinationBusinessId)}</dd>
          <dt>Shipped</dt>
          <dd>{dateTime(t.shippedAt)}</dd>
          <dt>Received</dt>
          <dd>{dateTime(t.receivedAt)}</dd>
          <dt>Value in transit</dt>
          <dd>{money(t.valueInTransit, currency)}</dd>
          <dt>Notes</dt>
          <dd>{t.notes ?? '—'}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="t-lines">
        <h2 id="t-lines">Lines</h2>
        <DataTable
          caption="Transfer lines"
          rows={t.lines}
          rowKey={(row) => row.id}
          columns={[
            {
              key: 'product',
              header: 'Product',
              render: (row) =>
                `${(outgoing ? row.product : row.destinationProduct).sku} ${(outgoing ? row.product : row.destinationProduct).name}`,
            },
            {
              key: 'qty',
              header: 'Quantity',
              number: true,
              render: (row) => quantity(row.quantity, unitOf(ours(row))),
            },
            {
              key: 'shipped',
              header: 'Shipped',
              number: true,
              render: (row) => quantity(row.quantityShipped, unitOf(ours(row))),
            },
            {
              key: 'got',
              header: 'Received',
              number: true,
              render: (row) => quantity(row.quantityReceived, unitOf(ours(row))),
            },
            {
              key: 'transit',
              header: 'In transit',
              number: true,
              render: (row) => quantity(row.quantityInTransit, unitOf(ours(row))),
            },
          ]}
        />
      </section>
      {canModify && !outgoing && (t.status === 'Shipped' || t.status === 'PartiallyReceived') && (
        <ReceiveTransfer transfer={t} onDone={refresh} />
      )}
    </>
  )
}

function ReceiveTransfer({ transfer, onDone }: { transfer: Transfer; onDone: () => unknown }) {
  const receive = useMutation({ ...receiveTransferOrderMutation(), onSuccess: onDone })
  const [amounts, setAmounts] = useState<Record<string, string>>({})
  const unitOf = useUnits(transfer.lines.map((line) => line.destinationProduct.sku))
  const [when, setWhen] = useState(toLocalInput())
  const [local, setLocal] = useState<Record<string, string>>({})
  const problems = mergedProblems(local, receive.error)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    const lines: { lineId: string; quantity: number }[] = []
    transfer.lines.forEach((line, index) => {
      const text = (amounts[line.id] ?? '').trim()
      if (!text) return
      const q = Number(text)
      if (!Number.isFinite(q) || q <= 0) found[`lines.${index}.quantity`] = 'More than 0, or empty.'
      else if (q > line.quantityInTransit)
        found[`lines.${index}.quantity`] =
          `At most the ${quantity(line.quantityInTransit, unitOf(line.destinationProduct.sku))} in transit.`
      else lines.push({ lineId: line.id, quantity: q })
    })
    const effectiveDate = fromLocalInput(when)
    if (!effectiveDate) found.effectiveDate = 'Enter a date and time.'
    else if (isFuture(effectiveDate)) found.effectiveDate = 'A receipt cannot be in the future.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    // No lines: everything still in transit arrives.
    receive.mutate(
      {
        path: { transferOrderId: transfer.id },
        body: { ...(effectiveDate ? { effectiveDate } : {}), ...(lines.length > 0 ? { lines } : {}) },
      },
      { onSuccess: () => setAmounts({}) },
    )
  }
  return (
    <section className="card" aria-labelledby="t-receive">
      <h2 id="t-receive">Receive</h2>
      <p className="muted">Leave the quantities empty to receive everything still in transit.</p>
      <form onSubmit={submit} noValidate aria-labelledby="t-receive">
        {receive.error ? <ErrorNotice error={receive.error} what="Receiving the transfer" /> : null}
        {receive.data && (
          <div className="notice ok" role="status">
            Received.
          </div>
        )}
        <div className="form-row">
          {transfer.lines.map((line, index) =>
            line.quantityInTransit > 0 ? (
              <Field
                key={line.id}
                label={`${line.destinationProduct.sku} arrived`}
                hint={`${quantity(line.quantityInTransit, unitOf(line.destinationProduct.sku))} in transit`}
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
          <Field label="Received at" problem={problems.effectiveDate}>
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
        </div>
        <button type="submit" disabled={receive.isPending}>
          {receive.isPending ? 'Receiving…' : 'Receive'}
        </button>
      </form>
    </section>
  )
}
