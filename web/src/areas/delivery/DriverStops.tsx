import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, lazy, Suspense, useMemo, useState } from 'react'
import { Link, useParams } from 'wouter'
import { ApiError } from '../../api/errors'
import {
  getPickListOptions,
  getShipmentProofOptions,
  stopArrivedMutation,
  stopDeliveredMutation,
  stopFailedMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { uploadProofFile } from '../../api/generated/core/sdk.gen'
import type { StopFailedRequest } from '../../api/generated/core/types.gen'
import { getPlan, type Plan, planKey } from '../../api/plans'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { mergedProblems } from '../../lib/form-errors'
import { clock, integer, quantity, words } from '../../lib/format'
import { devicePosition, useWatchedPosition } from '../../lib/geolocation'
import type { MapStop } from './LeafletMap'
import { deliveryPoint, stopTone } from './left-out'
import { SignaturePad, type SignaturePadHandle } from './SignaturePad'

// Loaded after the stops: on a phone the list and its buttons come first, the map (Leaflet) beside.
const PlanMap = lazy(() => import('./LeafletMap').then((m) => ({ default: m.PlanMap })))

type Stop = Plan['shipments'][number]
type AfterFailure = NonNullable<StopFailedRequest['afterFailure']>
type Lines = Record<string, { customerName: string | null; lines: string[] }>

const DONE = new Set(['Delivered', 'Failed', 'Returned', 'Cancelled'])

/** What an upload may answer about the file itself: not an image (415), too large (413), no file (400). */
const REFUSED_FILE = new Set([400, 413, 415])

/**
 * Uploads one image of the stop's proof (the route a driver's Shipments Modify allows) and answers
 * its id. A refused file is filed under `field`, the stop's field it was for, so the form shows the
 * server's words at the control that chose the file.
 */
async function upload(file: File, field: 'signatureFileId' | 'photoFileIds'): Promise<string> {
  try {
    const { data } = await uploadProofFile({ body: { file }, throwOnError: true })
    return data.data.id
  } catch (error) {
    if (!(error instanceof ApiError) || !REFUSED_FILE.has(error.status)) throw error
    throw new ApiError(
      error.status,
      error.code,
      error.message,
      [{ field, message: error.message }],
      error.requestId,
      error.retryAfterSeconds,
    )
  }
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
            <DriverMap plan={p} stops={stops} />
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

/**
 * The plan's stops and, once the person allows the browser to tell, where the device is: a small
 * map above the list. The position is only shown here; the stop reports send their own.
 */
function DriverMap({ plan, stops }: { plan: Plan; stops: readonly Stop[] }) {
  const { state, position, start } = useWatchedPosition()
  const mapStops = useMemo<MapStop[]>(
    () =>
      stops.flatMap((s, index) => {
        const point = deliveryPoint(s)
        const sequence = s.stopSequence ?? index + 1
        return point
          ? [
              {
                id: s.id,
                sequence,
                title: `${s.code}, ${s.deliveryAddress?.fullAddress ?? ''} (${words(s.status)})`,
                position: point,
                tone: stopTone(s.status),
              },
            ]
          : []
      }),
    [stops],
  )
  const depot =
    plan.depot && plan.depot.latitude !== null && plan.depot.longitude !== null
      ? ([plan.depot.longitude, plan.depot.latitude] as [number, number])
      : null
  const here = useMemo(
    () =>
      position
        ? {
            position: [position.longitude, position.latitude] as [number, number],
            accuracy: position.accuracy,
          }
        : null,
    [position],
  )
  return (
    <section className="card driver-map" aria-labelledby="driver-map-title">
      <h2 id="driver-map-title">Map</h2>
      <Suspense fallback={<div className="map small" aria-hidden="true" />}>
        <PlanMap
          size="small"
          label={`Map of ${plan.code}: ${here ? 'where you are (the blue dot) and ' : ''}${mapStops.length} numbered stops in delivery order${depot ? ' from the depot (D)' : ''}. The stops are listed below.`}
          zones={NO_ZONES}
          depot={depot}
          stops={mapStops}
          here={here}
        />
      </Suspense>
      <div className="map-position" aria-live="polite">
        {state === 'on' && position ? (
          <p className="muted">You are the blue dot, to within {integer(Math.round(position.accuracy))} m.</p>
        ) : state === 'idle' ? (
          <button type="button" className="secondary" onClick={start}>
            Show where I am
          </button>
        ) : state === 'denied' ? (
          <p className="muted">
            This device does not share where it is: allow it in the browser to see yourself on the map.
          </p>
        ) : (
          <p className="muted">This device cannot tell where it is.</p>
        )}
      </div>
    </section>
  )
}

const NO_ZONES: [] = []

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

/** The device's position for a stop report (the API's latitude and longitude), or nothing. */
async function at(): Promise<{ latitude?: number; longitude?: number }> {
  return (await devicePosition()) ?? {}
}

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
  const arrive = useMutation({ ...stopArrivedMutation() })
  const arrived = useMutation({
    mutationFn: async () => arrive.mutateAsync({ path: { shipmentId: stop.id }, body: await at() }),
    onSuccess: refresh,
  })
  const arrivedAt = proof.data?.data.operations.find((o) => o.kind === 'Arrived')?.occurredAt ?? null
  return (
    <section aria-label={`Current stop ${stop.code}`}>
      {arrived.error ? <ErrorNotice error={arrived.error} what="Saying you arrived" /> : null}
      <div className="actions stop-actions">
        {arrivedAt ? (
          <span className="badge good">Arrived {clock(arrivedAt)}</span>
        ) : (
          <button type="button" disabled={arrived.isPending || !proof.data} onClick={() => arrived.mutate()}>
            {arrived.isPending ? 'Saving…' : 'Arrived'}
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
      <p className="muted">
        Arrived, Delivered and Failed are saved with where you are, when this device is allowed to tell.
      </p>
      {action === 'delivered' && <DeliveredForm stop={stop} onDone={refresh} />}
      {action === 'failed' && <FailedForm stop={stop} onDone={refresh} />}
    </section>
  )
}

function DeliveredForm({ stop, onDone }: { stop: Stop; onDone: () => Promise<unknown> }) {
  const [recipient, setRecipient] = useState('')
  const [photo, setPhoto] = useState<File | null>(null)
  const [pad, setPad] = useState<SignaturePadHandle | null>(null)
  // Drawn on the screen, or typed (the keyboard's and the screen reader's way): the same image either way.
  const [signing, setSigning] = useState<'drawn' | 'typed'>('drawn')
  const [typed, setTyped] = useState('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const deliver = useMutation({ ...stopDeliveredMutation() })
  const send = useMutation({
    mutationFn: async (signature: Blob) => {
      // The photo first: the one a driver chooses, so the one that may be refused.
      const photoFileIds = photo ? [await upload(photo, 'photoFileIds')] : []
      const signatureFileId = await upload(
        new File([signature], `signature-${stop.code}.png`, { type: 'image/png' }),
        'signatureFileId',
      )
      return deliver.mutateAsync({
        path: { shipmentId: stop.id },
        body: { recipientName: recipient.trim(), signatureFileId, photoFileIds, ...(await at()) },
      })
    },
    onSuccess: onDone,
  })
  const problems = mergedProblems(local, send.error)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!recipient.trim()) found.recipientName = 'Enter who took the goods.'
    if (signing === 'typed') pad?.write(typed)
    const signature = pad && !pad.isEmpty() ? await pad.toPng() : null
    if (!signature)
      found.signatureFileId =
        signing === 'typed'
          ? 'Type the recipient’s name as their signature.'
          : 'Ask the recipient to sign in the box.'
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
      <fieldset className="choice">
        <legend>Signature</legend>
        <label>
          <input
            type="radio"
            name={`signing-${stop.id}`}
            checked={signing === 'drawn'}
            onChange={() => {
              setSigning('drawn')
              pad?.clear()
            }}
          />{' '}
          Drawn on the screen
        </label>
        <label>
          <input
            type="radio"
            name={`signing-${stop.id}`}
            checked={signing === 'typed'}
            onChange={() => {
              setSigning('typed')
              pad?.write(typed)
            }}
          />{' '}
          Typed with the keyboard
        </label>
      </fieldset>
      {signing === 'typed' && (
        <Field
          label="Typed signature"
          hint="The recipient types their name; it is saved as the signature’s image, shown below"
          problem={problems.signatureFileId}
        >
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value)
                pad?.write(e.target.value)
              }}
            />
          )}
        </Field>
      )}
      <Field
        label={signing === 'drawn' ? 'Signature box' : 'The typed signature as it is saved'}
        hint={signing === 'drawn' ? 'Draw with a finger or the mouse' : undefined}
        problem={signing === 'drawn' ? problems.signatureFileId : undefined}
      >
        {(control) => (
          <SignaturePad
            {...control}
            readOnly={signing === 'typed'}
            label={
              signing === 'drawn'
                ? 'Signature box'
                : typed.trim()
                  ? `Signature typed: ${typed.trim()}`
                  : 'Signature: nothing typed yet'
            }
            onReady={setPad}
          />
        )}
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
        {signing === 'drawn' && (
          <button type="button" className="secondary" onClick={() => pad?.clear()}>
            Clear the signature
          </button>
        )}
      </div>
    </form>
  )
}

function FailedForm({ stop, onDone }: { stop: Stop; onDone: () => Promise<unknown> }) {
  const [reason, setReason] = useState('')
  const [afterFailure, setAfterFailure] = useState<AfterFailure | ''>('')
  const [local, setLocal] = useState<Record<string, string>>({})
  const report = useMutation({ ...stopFailedMutation() })
  const fail = useMutation({
    mutationFn: async (body: StopFailedRequest) =>
      report.mutateAsync({ path: { shipmentId: stop.id }, body: { ...body, ...(await at()) } }),
    onSuccess: onDone,
  })
  const problems = mergedProblems(local, fail.error)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!reason.trim()) found.reason = 'Say why the delivery failed.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    fail.mutate({ reason: reason.trim(), afterFailure: afterFailure || null })
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
