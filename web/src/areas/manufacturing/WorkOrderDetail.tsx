import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import { ApiError } from '../../api/errors'
import {
  cancelWorkOrderMutation,
  completeWorkOrderMutation,
  getWorkOrderOptions,
  releaseWorkOrderMutation,
  startWorkOrderMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { fromLocalInput, isFuture, toLocalInput } from '../../lib/dates'
import { costPerUnit, dateTime, money, quantity } from '../../lib/format'
import { shortfallOf } from '../stock/shortfall'
import { useUnits } from '../stock/units'

/** The moves a work order's state allows (the server decides; this only offers them). */
export function workOrderMoves(status: string): ('release' | 'start' | 'complete' | 'cancel')[] {
  switch (status) {
    case 'Draft':
      return ['release', 'cancel']
    case 'Released':
      return ['start', 'complete', 'cancel']
    case 'InProgress':
      return ['complete', 'cancel']
    default:
      return []
  }
}

/** One work order: its state and the moves from it, standard against actual cost. */
export default function WorkOrderDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can, currency } = useWorkspace()
  const queryClient = useQueryClient()
  const path = { workOrderId: id }
  const order = useQuery(getWorkOrderOptions({ path }))
  const refresh = () =>
    Promise.all(
      [
        'getWorkOrder',
        'getWorkOrders',
        'getBomWorkOrders',
        'getProducts',
        'getProduct',
        'getProductLedger',
      ].map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })),
    )
  const release = useMutation({ ...releaseWorkOrderMutation(), onSuccess: refresh })
  const start = useMutation({ ...startWorkOrderMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelWorkOrderMutation(), onSuccess: refresh })
  const complete = useMutation({ ...completeWorkOrderMutation(), onSuccess: refresh })
  const [when, setWhen] = useState(toLocalInput())
  const [produced, setProduced] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const w = order.data?.data
  const unitOf = useUnits(w ? [w.product.sku] : [])
  const error = release.error ?? start.error ?? cancel.error ?? complete.error
  const busy = release.isPending || start.isPending || cancel.isPending || complete.isPending
  const shortfall = shortfallOf(error)
  const short = error instanceof ApiError && error.code === 'component_shortfall' ? error : null

  if (order.error)
    return (
      <>
        <PageHeader title="Work order" />
        <ErrorNotice error={order.error} what="Loading the work order" onRetry={() => void order.refetch()} />
        <Link href="/manufacturing/work-orders">Back to work orders</Link>
      </>
    )
  if (!w) return <Loading label="Loading the work order…" />
  const moves = can('WorkOrders', 'Modify') ? workOrderMoves(w.status) : []
  const submitComplete = (event: FormEvent) => {
    event.preventDefault()
    const effectiveDate = fromLocalInput(when)
    const qty = produced.trim() === '' ? undefined : Number(produced)
    if (!effectiveDate || isFuture(effectiveDate))
      return setProblem('Enter when it was made (not in the future).')
    if (qty !== undefined && !(qty > 0))
      return setProblem('Enter the quantity made (more than 0), or leave it empty.')
    setProblem(null)
    complete.mutate({
      path,
      body: { effectiveDate, ...(qty !== undefined ? { quantityProduced: qty } : {}) },
    })
  }

  return (
    <>
      <p className="breadcrumb">
        <Link href="/manufacturing/work-orders">Work orders</Link> / {w.code}
      </p>
      <PageHeader title={`${w.code}: ${w.product.name}`}>
        <Status value={w.status} />
        {moves.includes('release') && (
          <button type="button" disabled={busy} onClick={() => release.mutate({ path })}>
            Release
          </button>
        )}
        {moves.includes('start') && (
          <button type="button" disabled={busy} onClick={() => start.mutate({ path })}>
            Start
          </button>
        )}
        {moves.includes('cancel') && (
          <button type="button" className="danger" disabled={busy} onClick={() => cancel.mutate({ path })}>
            Cancel work order
          </button>
        )}
      </PageHeader>
      {short ? (
        <div className="notice error" role="alert">
          <p className="title">Not enough components: the work order was not completed</p>
          <ul>
            {short.reasons.map((reason) => (
              <li key={reason.field}>
                <strong>{reason.field}</strong> {reason.message}
              </li>
            ))}
          </ul>
          <p>Receive the missing components first, or complete it with a smaller quantity.</p>
        </div>
      ) : shortfall ? (
        <div className="notice error" role="alert">
          <p className="title">Not enough stock at that date: the work order was not completed</p>
          <p>
            A part's stock would go below zero on {dateTime(shortfall.date.toISOString())}, short by{' '}
            {quantity(shortfall.shortfall)}.
          </p>
          <p>Complete it with a later date, or receive the missing parts before that date.</p>
        </div>
      ) : error ? (
        <ErrorNotice error={error} what="Changing the work order" />
      ) : null}
      <div className="grid">
        <section className="card" aria-labelledby="w-facts">
          <h2 id="w-facts">Work order</h2>
          <dl className="facts">
            <dt>Makes</dt>
            <dd>
              <Link href={`/products/${w.productId}`}>
                {w.product.name} ({w.product.sku})
              </Link>
            </dd>
            <dt>From</dt>
            <dd>
              <Link href={`/manufacturing/boms/${w.bomId}`}>
                {w.bom.code} revision {w.bom.revision}
              </Link>
            </dd>
            <dt>Quantity</dt>
            <dd>{quantity(w.quantity, unitOf(w.product.sku))}</dd>
            <dt>Planned</dt>
            <dd>
              {dateTime(w.plannedStart)} – {dateTime(w.plannedEnd)}
            </dd>
            <dt>Released</dt>
            <dd>{dateTime(w.releasedAt)}</dd>
            <dt>Started</dt>
            <dd>{dateTime(w.startedAt)}</dd>
            <dt>Completed</dt>
            <dd>{dateTime(w.completedAt)}</dd>
            {w.cancelledAt && (
              <>
                <dt>Cancelled</dt>
                <dd>{dateTime(w.cancelledAt)}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="card" aria-labelledby="w-cost">
          <h2 id="w-cost">Cost</h2>
          <dl className="facts">
            <dt>Standard, one</dt>
            <dd>
              {w.standardUnitCost === null
                ? 'fixed when released'
                : costPerUnit(w.standardUnitCost, currency)}
            </dd>
            <dt>Standard, all</dt>
            <dd>{money(w.standardTotalCost, currency)}</dd>
            <dt>Made</dt>
            <dd>{quantity(w.quantityProduced, unitOf(w.product.sku))}</dd>
            <dt>Actual, one</dt>
            <dd>{costPerUnit(w.actualUnitCost, currency)}</dd>
            <dt>Actual, all</dt>
            <dd>{money(w.actualTotalCost, currency)}</dd>
            <dt>Variance</dt>
            <dd>{money(w.costVariance, currency)}</dd>
          </dl>
        </section>
      </div>
      {moves.includes('complete') && (
        <section className="card" aria-labelledby="w-complete">
          <h2 id="w-complete">Complete</h2>
          <p className="muted">
            Takes the components out of stock and puts what was made in, at the date given.
          </p>
          <form onSubmit={submitComplete} noValidate>
            <div className="form-row">
              <Field label="Made on" problem={problem}>
                {(control) => (
                  <input
                    {...control}
                    type="datetime-local"
                    max={toLocalInput()}
                    value={when}
                    onChange={(event) => setWhen(event.target.value)}
                  />
                )}
              </Field>
              <Field
                label="Quantity made"
                hint={`Empty = the planned ${quantity(w.quantity, unitOf(w.product.sku))}`}
              >
                {(control) => (
                  <input
                    {...control}
                    inputMode="decimal"
                    value={produced}
                    onChange={(event) => setProduced(event.target.value)}
                  />
                )}
              </Field>
            </div>
            <button type="submit" disabled={busy}>
              {complete.isPending ? 'Completing…' : 'Complete work order'}
            </button>
          </form>
        </section>
      )}
    </>
  )
}
