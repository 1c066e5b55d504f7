import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  assignShipmentMutation,
  cancelShipmentMutation,
  deliverShipmentMutation,
  dispatchShipmentMutation,
  failShipmentMutation,
  getShipmentOptions,
  returnShipmentMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { dateTime, day, quantity } from '../../lib/format'

export type ShipmentMove = 'assign' | 'dispatch' | 'deliver' | 'fail' | 'return' | 'cancel'

/** The moves a shipment's state allows: Pending -> Assigned -> InTransit -> Delivered or Failed; Failed -> Returned; Pending or Assigned -> Cancelled. */
export function shipmentMoves(status: string): ShipmentMove[] {
  switch (status) {
    case 'Pending':
      return ['assign', 'cancel']
    case 'Assigned':
      return ['dispatch', 'cancel']
    case 'InTransit':
      return ['deliver', 'fail']
    case 'Failed':
      return ['return']
    default:
      return []
  }
}

/** One shipment: where it goes, its state and the moves from it, its milestones. */
export default function ShipmentDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const path = { shipmentId: id }
  const shipment = useQuery(getShipmentOptions({ path }))
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['plan'] }),
      ...['getShipment', 'getShipments', 'getDispatchOverview', 'getTrips'].map((_id) =>
        queryClient.invalidateQueries({ queryKey: [{ _id }] }),
      ),
    ])
  const assign = useMutation({ ...assignShipmentMutation(), onSuccess: refresh })
  const dispatch = useMutation({ ...dispatchShipmentMutation(), onSuccess: refresh })
  const deliver = useMutation({ ...deliverShipmentMutation(), onSuccess: refresh })
  const fail = useMutation({ ...failShipmentMutation(), onSuccess: refresh })
  const giveBack = useMutation({ ...returnShipmentMutation(), onSuccess: refresh })
  const cancel = useMutation({ ...cancelShipmentMutation(), onSuccess: refresh })
  const all = [assign, dispatch, deliver, fail, giveBack, cancel]
  const error = all.find((m) => m.error)?.error
  const busy = all.some((m) => m.isPending)
  const [recipient, setRecipient] = useState('')
  const [reason, setReason] = useState('')
  const [reasonProblem, setReasonProblem] = useState<string | null>(null)
  const s = shipment.data?.data

  if (shipment.error)
    return (
      <>
        <PageHeader title="Shipment" />
        <ErrorNotice
          error={shipment.error}
          what="Loading the shipment"
          onRetry={() => void shipment.refetch()}
        />
        <Link href="/delivery/shipments">Back to shipments</Link>
      </>
    )
  if (!s) return <Loading label="Loading the shipment…" />
  const moves = can('Shipments', 'Modify') ? shipmentMoves(s.status) : []
  const submitFail = (event: FormEvent) => {
    event.preventDefault()
    if (!reason.trim()) return setReasonProblem('Say why the delivery failed.')
    setReasonProblem(null)
    fail.mutate({ path, body: { reason: reason.trim() } })
  }
  const milestones: [string, string | null][] = [
    ['Created', s.dateCreated],
    ['Assigned', s.assignedAt],
    ['Dispatched', s.dispatchedAt],
    ['Delivered', s.deliveredAt],
    ['Failed', s.failedAt],
    ['Returned', s.returnedAt],
    ['Cancelled', s.cancelledAt],
  ]
  return (
    <>
      <p className="breadcrumb">
        <Link href="/delivery/shipments">Shipments</Link> / {s.code}
      </p>
      <PageHeader title={`Shipment ${s.code}`}>
        <Status value={s.status} />
        {moves.includes('assign') && (
          <button type="button" disabled={busy} onClick={() => assign.mutate({ path })}>
            Mark assigned
          </button>
        )}
        {moves.includes('dispatch') && (
          <button type="button" disabled={busy} onClick={() => dispatch.mutate({ path })}>
            Dispatch (in transit)
          </button>
        )}
        {moves.includes('return') && (
          <button type="button" disabled={busy} onClick={() => giveBack.mutate({ path })}>
            Mark returned
          </button>
        )}
        {moves.includes('cancel') && (
          <button type="button" className="danger" disabled={busy} onClick={() => cancel.mutate({ path })}>
            Cancel shipment
          </button>
        )}
      </PageHeader>
      {error ? <ErrorNotice error={error} what="Changing the shipment" /> : null}
      <div className="grid">
        <section className="card" aria-labelledby="s-facts">
          <h2 id="s-facts">Shipment</h2>
          <dl className="facts">
            <dt>Deliver to</dt>
            <dd>{s.deliveryAddress?.fullAddress ?? '—'}</dd>
            <dt>Pick up at</dt>
            <dd>{s.pickupAddress?.fullAddress ?? '—'}</dd>
            <dt>Day</dt>
            <dd>{day(s.scheduledDate)}</dd>
            <dt>Weight</dt>
            <dd>{s.weight === null ? '—' : `${quantity(s.weight)} kg`}</dd>
            <dt>Plan</dt>
            <dd>
              {s.deliveryPlanId ? (
                <Link href={`/delivery/plans/${s.deliveryPlanId}`}>
                  stop {s.stopSequence ?? '?'} of its plan
                </Link>
              ) : (
                'on no plan'
              )}
            </dd>
            {s.customerId && (
              <>
                <dt>Customer</dt>
                <dd>
                  <Link href={`/customers/${s.customerId}`}>open the customer</Link>
                </dd>
              </>
            )}
            {s.failReason && (
              <>
                <dt>Why it failed</dt>
                <dd>{s.failReason}</dd>
              </>
            )}
            {s.notes && (
              <>
                <dt>Notes</dt>
                <dd>{s.notes}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="card" aria-labelledby="s-milestones">
          <h2 id="s-milestones">Milestones</h2>
          <ol className="timeline">
            {milestones
              .filter(([, at]) => at)
              .map(([what, at]) => (
                <li key={what}>
                  <strong>{what}</strong> {dateTime(at)}
                </li>
              ))}
          </ol>
        </section>
      </div>
      {(moves.includes('deliver') || moves.includes('fail')) && (
        <div className="grid">
          <form
            className="card"
            aria-labelledby="s-deliver"
            onSubmit={(event) => {
              event.preventDefault()
              deliver.mutate({ path, body: { recipientName: recipient.trim() || null } })
            }}
          >
            <h2 id="s-deliver">Delivered</h2>
            <Field label="Received by">
              {(control) => (
                <input
                  {...control}
                  value={recipient}
                  onChange={(event) => setRecipient(event.target.value)}
                />
              )}
            </Field>
            <button type="submit" disabled={busy}>
              Mark delivered
            </button>
          </form>
          <form className="card" aria-labelledby="s-fail" onSubmit={submitFail} noValidate>
            <h2 id="s-fail">Failed</h2>
            <Field label="Why it failed" problem={reasonProblem}>
              {(control) => (
                <input {...control} value={reason} onChange={(event) => setReason(event.target.value)} />
              )}
            </Field>
            <button type="submit" className="danger" disabled={busy}>
              Mark failed
            </button>
          </form>
        </div>
      )}
    </>
  )
}
