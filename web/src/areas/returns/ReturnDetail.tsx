import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  cancelReturnMutation,
  getReturnOptions,
  receiveReturnMutation,
  writeOffReturnMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { fromLocalInput, isFuture, toLocalInput } from '../../lib/dates'
import { problemsOf } from '../../lib/form-errors'
import { costPerUnit, dateTime, money, quantity } from '../../lib/format'
import { useUnits } from '../stock/units'
import { returnMoves } from './return-logic'

/** One return: what comes back, its value and cost, and its moves (receive, write off, cancel). */
export default function ReturnDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can, currency } = useWorkspace()
  const queryClient = useQueryClient()
  const path = { returnId: id }
  const found = useQuery(getReturnOptions({ path }))
  const refresh = () =>
    Promise.all(
      ['getReturn', 'getReturns', 'getOrder', 'getOrderReturns', 'getProductAvailability', 'getProduct'].map(
        (_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] }),
      ),
    )
  const receive = useMutation({ ...receiveReturnMutation(), onSuccess: refresh })
  const writeOff = useMutation({ ...writeOffReturnMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelReturnMutation(), onSuccess: refresh })
  const all = [receive, writeOff, cancel]
  const error = all.find((m) => m.error)?.error
  const busy = all.some((m) => m.isPending)
  const [opened] = useState(() => toLocalInput())
  const [receivedAt, setReceivedAt] = useState(opened)
  const [localProblem, setLocalProblem] = useState<string | null>(null)
  const r = found.data?.data
  const unitOf = useUnits((r?.lines ?? []).map((line) => line.sku))

  if (found.error)
    return (
      <>
        <PageHeader title="Return" />
        <ErrorNotice error={found.error} what="Loading the return" onRetry={() => void found.refetch()} />
        <Link href="/returns">Back to returns</Link>
      </>
    )
  if (!r) return <Loading label="Loading the return…" />
  const moves = can('Orders', 'Modify') ? returnMoves(r.status) : []
  const reset = () => {
    for (const m of all) m.reset()
  }
  const submitReceive = (event: FormEvent) => {
    event.preventDefault()
    reset()
    const instant = fromLocalInput(receivedAt)
    if (!instant) return setLocalProblem('Enter the day and time the goods came back.')
    if (isFuture(instant)) return setLocalProblem('Not in the future: the goods are back when they are.')
    setLocalProblem(null)
    // Left as it was (this minute): the server's now, which is never before the goods left.
    receive.mutate({ path, body: receivedAt === opened ? {} : { receivedAt: instant } })
  }
  const receivedProblem = localProblem ?? problemsOf(receive.error).receivedAt
  return (
    <>
      <p className="breadcrumb">
        <Link href="/returns">Returns</Link> / {r.number}
      </p>
      <PageHeader title={`Return ${r.number}`}>
        <Status value={r.status} />
        {moves.includes('writeOff') && (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => {
              reset()
              writeOff.mutate({ path })
            }}
          >
            Write off (credit, nothing back in stock)
          </button>
        )}
        {moves.includes('cancel') && (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => {
              reset()
              cancel.mutate({ path })
            }}
          >
            Cancel return
          </button>
        )}
      </PageHeader>
      {error && !receivedProblem ? <ErrorNotice error={error} what="Changing the return" /> : null}
      <div className="grid">
        <section className="card" aria-labelledby="r-facts">
          <h2 id="r-facts">Return</h2>
          <dl className="facts">
            <dt>Order</dt>
            <dd>
              {r.orderId ? <Link href={`/orders/${r.orderId}`}>{r.orderCode ?? 'the order'}</Link> : '—'}
            </dd>
            <dt>Shipment</dt>
            <dd>
              {r.shipmentId ? <Link href={`/delivery/shipments/${r.shipmentId}`}>the shipment</Link> : '—'}
            </dd>
            <dt>Reason</dt>
            <dd>{r.reason}</dd>
            <dt>Value</dt>
            <dd data-testid="return-value">
              {money(r.value, currency)}
              {r.credited ? ' (credited on the order)' : ' (not credited yet)'}
            </dd>
            <dt>Requested</dt>
            <dd>{dateTime(r.dateCreated)}</dd>
            {r.receivedAt && (
              <>
                <dt>Received</dt>
                <dd>{dateTime(r.receivedAt)}</dd>
              </>
            )}
            {r.writtenOffAt && (
              <>
                <dt>Written off</dt>
                <dd>{dateTime(r.writtenOffAt)}</dd>
              </>
            )}
            {r.cancelledAt && (
              <>
                <dt>Cancelled</dt>
                <dd>{dateTime(r.cancelledAt)}</dd>
              </>
            )}
            {r.notes && (
              <>
                <dt>Notes</dt>
                <dd>{r.notes}</dd>
              </>
            )}
          </dl>
        </section>
        {moves.includes('receive') && (
          <form className="card" aria-labelledby="r-receive" onSubmit={submitReceive} noValidate>
            <h2 id="r-receive">Receive into stock</h2>
            {receive.error && receivedProblem ? (
              <ErrorNotice error={receive.error} what="Receiving the return" />
            ) : null}
            <Field
              label="Received at"
              hint="Back-dating re-values the ledger after it; not before the goods left"
              problem={receivedProblem}
            >
              {(control) => (
                <input
                  {...control}
                  type="datetime-local"
                  value={receivedAt}
                  onChange={(event) => setReceivedAt(event.target.value)}
                />
              )}
            </Field>
            <button type="submit" disabled={busy}>
              {receive.isPending ? 'Receiving…' : 'Receive'}
            </button>
          </form>
        )}
      </div>
      <section className="card" aria-labelledby="r-lines">
        <h2 id="r-lines">What comes back</h2>
        <DataTable
          caption={`Lines of ${r.number}`}
          rows={r.lines}
          rowKey={(line) => line.id}
          columns={[
            { key: 'n', header: 'Line', number: true, render: (line) => line.lineNumber },
            {
              key: 'product',
              header: 'Product',
              render: (line) => (
                <Link href={`/products/${line.productId}`}>{`${line.sku} ${line.name}`}</Link>
              ),
            },
            {
              key: 'qty',
              header: 'Quantity',
              number: true,
              render: (line) => quantity(line.quantity, unitOf(line.sku)),
            },
            {
              key: 'price',
              header: 'Unit price',
              number: true,
              render: (line) => money(line.unitPrice, currency),
            },
            { key: 'value', header: 'Value', number: true, render: (line) => money(line.value, currency) },
            {
              key: 'cost',
              header: 'Cost it left with',
              number: true,
              render: (line) => costPerUnit(line.unitCost, currency),
            },
            { key: 'left', header: 'Left stock', nowrap: true, render: (line) => dateTime(line.leftAt) },
          ]}
        />
      </section>
    </>
  )
}
