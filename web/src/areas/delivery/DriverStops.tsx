import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  getPickListOptions,
  getShipmentProofOptions,
  stopArrivedMutation,
  stopDeliveredMutation,
  stopFailedMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { uploadFile } from '../../api/generated/core/sdk.gen'
import type { StopFailedRequest } from '../../api/generated/core/types.gen'
import { getPlan, type Plan, planKey } from '../../api/plans'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { mergedProblems } from '../../lib/form-errors'
import { clock, quantity } from '../../lib/format'
import { SignaturePad, type SignaturePadHandle } from './SignaturePad'

type Stop = Plan['shipments'][number]
type AfterFailure = NonNullable<StopFailedRequest['afterFailure']>
type Lines = Record<string, { customerName: string | null; lines: string[] }>

const DONE = new Set(['Delivered', 'Failed', 'Returned', 'Cancelled'])

/** Uploads one file of the stop's proof and answers its id. */
async function upload(file: File): Promise<string> {
  const { data } = await uploadFile({ body: { file }, throwOnError: true })
  return data.data.id
}

/**
 * A driver's run on a phone: the plan's stops in order with what each gets, and for the current stop
 * "Arrived", "Delivered" with a signature (and a photo) as the proof, or "Failed" with the reason.
 */
export default function DriverStops() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const canModify = can('Shipments', 'Modify')
  const plan = useQuery({ queryKey: planKey(id), queryFn: ({ signal }) => getPlan(id, signal) })
  const pickList = useQuery(getPickListOptions({ path: { deliveryPlanId: id } }))
  const lines: Lines = Object.fromEntries(
    (pickList.data?.data.byStop ?? []).map((stop) => [
      stop.shipmentId,
      {
        customerName: stop.customerName,
        lines: stop.lines.map(
          (line) => `${quantity(line.quantity)} × ${line.name}${line.package ? ` (${line.package})` : ''}`,
        ),
      },
    ]),
  )
  return (
    <Loaded query={plan} what="Loading the plan">
      {(p) => {
        const stops = [...p.shipments].sort(
          (a, b) => (a.stopSequence ?? Number.MAX_SAFE_INTEGER) - (b.stopSequence ?? Number.MAX_SAFE_INTEGER),
        )
        const current = stops.find((s) => s.status === 'InTransit') ?? null
        const done = stops.filter((s) => DONE.has(s.status)).length
        return (
          <div className="driver">
            <p className="breadcrumb">
              <Link href={`/delivery/plans/${p.id}`}>{p.code}</Link> / Driver’s stops
            </p>
            <PageHeader title={`Stops of ${p.code}`}>
              <Status value={p.status} />
            </PageHeader>
            <p role="status">
              {done} of {stops.length} stops done
              {p.status === 'Dispatched'
                ? current
                  ? '.'
                  : ': nothing left to deliver.'
                : p.status === 'Draft' || p.status === 'Scheduled'
                  ? '. The plan is not out yet: the stops open once it is dispatched.'
                  : '.'}
            </p>
            <ol className="stops">
              {stops.map((stop, index) => (
                <li
                  key={stop.id}
                  className={`card stop${stop.id === current?.id ? ' current' : ''}`}
                  aria-current={stop.id === current?.id ? 'step' : undefined}
                >
                  <StopSummary stop={stop} number={stop.stopSequence ?? index + 1} lines={lines[stop.id]} />
                  {stop.id === current?.id && canModify && <CurrentStop stop={stop} planId={p.id} />}
                </li>
              ))}
            </ol>
          </div>
        )
      }}
    </Loaded>
  )
}

function StopSummary({
  stop,
  number,
  lines,
}: {
  stop: Stop
  number: number
  lines: Lines[string] | undefined
}) {
  return (
    <>
      <h2>
        Stop {number}: {stop.code} <Status value={stop.status} />
      </h2>
      {lines?.customerName && <p className="stop-customer">{lines.customerName}</p>}
      <p className="stop-address">{stop.deliveryAddress?.fullAddress ?? 'No delivery address'}</p>
      {stop.plannedArrival && <p className="muted">Expected at {clock(stop.plannedArrival)}</p>}
      {lines && lines.lines.length > 0 ? (
        <ul aria-label={`To deliver at ${stop.code}`}>
          {lines.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">No goods listed.</p>
      )}
      {stop.notes && <p>Note: {stop.notes}</p>}
    </>
  )
}

type Action = 'delivered' | 'failed' | null

function CurrentStop({ stop, planId }: { stop: Stop; planId: string }) {
  const queryClient = useQueryClient()
  const proof = useQuery(getShipmentProofOptions({ path: { shipmentId: stop.id } }))
  const [action, setAction] = useState<Action>(null)
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['plan', planId] }),
      ...['getShipmentProof', 'getPickList', 'getShipments', 'getShipment'].map((_id) =>
        queryClient.invalidateQueries({ queryKey: [{ _id }] }),
      ),
    ])
  const arrived = useMutation({ ...stopArrivedMutation(), onSuccess: refresh })
  const arrivedAt = proof.data?.data.operations.find((o) => o.kind === 'Arrived')?.occurredAt ?? null
  return (
    <section aria-label={`Current stop ${stop.code}`}>
      {arrived.error ? <ErrorNotice error={arrived.error} what="Saying you arrived" /> : null}
      <div className="actions stop-actions">
        {arrivedAt ? (
          <span className="badge good">Arrived {clock(arrivedAt)}</span>
        ) : (
          <button
            type="button"
            disabled={arrived.isPending || !proof.data}
            onClick={() => arrived.mutate({ path: { shipmentId: stop.id }, body: {} })}
          >
            Arrived
          </button>
        )}
        <button
          type="button"
          className={action === 'delivered' ? '' : 'secondary'}
          aria-expanded={action === 'delivered'}
          onClick={() => setAction(action === 'delivered' ? null : 'delivered')}
        >
          Delivered
        </button>
        <button
          type="button"
          className={action === 'failed' ? 'danger' : 'secondary'}
          aria-expanded={action === 'failed'}
          onClick={() => setAction(action === 'failed' ? null : 'failed')}
        >
          Failed
        </button>
      </div>
      {action === 'delivered' && <DeliveredForm stop={stop} onDone={refresh} />}
      {action === 'failed' && <FailedForm stop={stop} onDone={refresh} />}
    </section>
  )
}

function DeliveredForm({ stop, onDone }: { stop: Stop; onDone: () => Promise<unknown> }) {
  const [recipient, setRecipient] = useState('')
  const [photo, setPhoto] = useState<File | null>(null)
  const [pad, setPad] = useState<SignaturePadHandle | null>(null)
  const [local, setLocal] = useState<Record<string, string>>({})
  const deliver = useMutation({ ...stopDeliveredMutation() })
  const send = useMutation({
    mutationFn: async (signature: Blob) => {
      const signatureFileId = await upload(
        new File([signature], `signature-${stop.code}.png`, { type: 'image/png' }),
      )
      const photoFileIds = photo ? [await upload(photo)] : []
      return deliver.mutateAsync({
        path: { shipmentId: stop.id },
        body: { recipientName: recipient.trim(), signatureFileId, photoFileIds },
      })
    },
    onSuccess: onDone,
  })
  const problems = mergedProblems(local, send.error)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!recipient.trim()) found.recipientName = 'Enter who took the goods.'
    const signature = pad && !pad.isEmpty() ? await pad.toPng() : null
    if (!signature) found.signatureFileId = 'Ask the recipient to sign in the box.'
    setLocal(found)
    if (Object.keys(found).length > 0 || !signature) return
    send.mutate(signature)
  }

  return (
    <form
      className="stop-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Delivered ${stop.code}`}
    >
      {send.error ? <ErrorNotice error={send.error} what="Saving the delivery" /> : null}
      <Field label="Received by" problem={problems.recipientName}>
        {(control) => (
          <input
            {...control}
            autoComplete="off"
            value={recipient}
            onChange={(e) => setRecipient(e.target.value)}
          />
        )}
      </Field>
      <Field label="Signature" hint="Draw with a finger or the mouse" problem={problems.signatureFileId}>
        {(control) => <SignaturePad {...control} onReady={setPad} />}
      </Field>
      <Field
        label="Photo (optional)"
        hint="A picture of the goods where they were left"
        problem={problems.photoFileIds}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            accept="image/*"
            capture="environment"
            onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" disabled={send.isPending}>
          {send.isPending ? 'Saving…' : 'Confirm delivery'}
        </button>
        <button type="button" className="secondary" onClick={() => pad?.clear()}>
          Clear the signature
        </button>
      </div>
    </form>
  )
}

function FailedForm({ stop, onDone }: { stop: Stop; onDone: () => Promise<unknown> }) {
  const [reason, setReason] = useState('')
  const [afterFailure, setAfterFailure] = useState<AfterFailure | ''>('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const fail = useMutation({ ...stopFailedMutation(), onSuccess: onDone })
  const problems = mergedProblems(local, fail.error)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!reason.trim()) found.reason = 'Say why the delivery failed.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    fail.mutate({
      path: { shipmentId: stop.id },
      body: { reason: reason.trim(), afterFailure: afterFailure || null },
    })
  }
  return (
    <form className="stop-form" onSubmit={submit} noValidate aria-label={`Failed ${stop.code}`}>
      {fail.error ? <ErrorNotice error={fail.error} what="Saving the failed delivery" /> : null}
      <Field label="Reason" hint="What stopped the delivery" problem={problems.reason}>
        {(control) => (
          <textarea {...control} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
        )}
      </Field>
      <Field label="Then" hint="When the plan completes" problem={problems.afterFailure}>
        {(control) => (
          <select
            {...control}
            value={afterFailure}
            onChange={(e) => setAfterFailure(e.target.value as AfterFailure | '')}
          >
            <option value="">As the business’s setting says</option>
            <option value="Replan">Deliver on a later plan</option>
            <option value="ReturnToStock">Return the goods to stock</option>
          </select>
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="danger" disabled={fail.isPending}>
          {fail.isPending ? 'Saving…' : 'Confirm failed delivery'}
        </button>
      </div>
    </form>
  )
}
