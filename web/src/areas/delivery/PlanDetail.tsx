import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, useEffect, useMemo, useState } from 'react'
import { Link, useParams } from 'wouter'
import { getAllDeliveryZonesOptions } from '../../api/generated/core/@tanstack/react-query.gen'
import { getUnassignedShipments } from '../../api/generated/core/sdk.gen'
import {
  autobatchPlan,
  getPlan,
  getPlanTimeline,
  movePlan,
  type Plan,
  type PlanMove,
  planKey,
  planMoves,
  planTimelineKey,
  removeShipmentFromPlan,
  reoptimisePlan,
  reorderStops,
} from '../../api/plans'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Loading, Progress } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Status } from '../../components/Status'
import { clock, dateTime, day, integer, kilometres, quantity, words } from '../../lib/format'
import { type MapStop, type MapZone, PlanMap } from './LeafletMap'
import {
  deliveryPoint,
  LEFT_OUT_WORDS,
  type LeftOutEntry,
  leftOutFromMessages,
  movedTo,
  scheduledOn,
  stopTone,
} from './left-out'
import { PickList } from './PickList'
import { usePointerReorder } from './pointer-reorder'

const MOVE_LABEL: Record<PlanMove, string> = {
  schedule: 'Schedule',
  dispatch: 'Dispatch',
  complete: 'Complete',
  cancel: 'Cancel plan',
}

const AUTOBATCH_STEPS = [
  'Choosing shipments and ordering the stops',
  'Reading the new route',
  'Finding what was left out',
]

type Shipment = Plan['shipments'][number]

interface Named extends LeftOutEntry {
  /** The shipment, when it is still unassigned on the plan's day (for its link and address). */
  shipment: Shipment | null
}

interface AutobatchResult {
  before: number
  after: number
  leftOut: Named[]
  notRouted: LeftOutEntry[]
}

interface ReoptimiseResult {
  routed: number
  first: string | null
  last: string | null
  notRouted: LeftOutEntry[]
}

/** One delivery plan: its stops in order on the map, autobatch, its state moves and its timeline. */
export default function PlanDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const plan = useQuery({ queryKey: planKey(id), queryFn: ({ signal }) => getPlan(id, signal) })
  const timeline = useQuery({
    queryKey: planTimelineKey(id),
    queryFn: ({ signal }) => getPlanTimeline(id, signal),
  })
  const zones = useQuery(getAllDeliveryZonesOptions({ query: { Page: 1, PageSize: 100 } }))
  const [step, setStep] = useState(-1)
  const [result, setResult] = useState<AutobatchResult | null>(null)
  const [reoptimised, setReoptimised] = useState<ReoptimiseResult | null>(null)

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['plan', id] }),
      ...['getTrips', 'getDispatchOverview', 'getShipments', 'getUnassignedShipments'].map((_id) =>
        queryClient.invalidateQueries({ queryKey: [{ _id }] }),
      ),
    ])
  const move = useMutation({ mutationFn: (m: PlanMove) => movePlan(id, m), onSuccess: refresh })
  const remove = useMutation({
    mutationFn: (shipmentId: string) => removeShipmentFromPlan(id, shipmentId),
    onSuccess: refresh,
  })
  // A stop moved by its buttons, Alt+Up/Down or a drop: saved at once, the answer is the plan.
  const [moved, setMoved] = useState<string | null>(null)
  const [refocus, setRefocus] = useState<string | null>(null)
  const reorder = useMutation({
    mutationFn: (change: { ids: string[]; code: string; focus: string }) => reorderStops(id, change.ids),
    onMutate: () => setMoved(null),
    onSuccess: (after, change) => {
      queryClient.setQueryData(planKey(id), after)
      const at = after.shipments.findIndex((s) => s.code === change.code)
      setMoved(`${change.code} is now stop ${at + 1} of ${after.shipments.length}.`)
      setRefocus(change.focus)
      void refresh()
    },
  })

  const autobatch = useMutation({
    mutationFn: async (current: Plan): Promise<AutobatchResult> => {
      setStep(0)
      setResult(null)
      setReoptimised(null)
      const { messages } = await autobatchPlan(id)
      setStep(1)
      const after = await queryClient.fetchQuery({
        queryKey: planKey(id),
        queryFn: () => getPlan(id),
        staleTime: 0,
      })
      setStep(2)
      // The server says what it left out and why; the day's unassigned shipments give their links.
      const { leftOut, notRouted } = leftOutFromMessages(messages)
      const { data } = await getUnassignedShipments({
        query: {
          Page: 1,
          PageSize: 100,
          $filter: `status eq 'Pending' and ${scheduledOn(current.scheduledDate)}`,
        },
        throwOnError: true,
      })
      const byCode = new Map(data.data.map((s) => [s.code, s as Shipment]))
      return {
        before: current.shipments.length,
        after: after.shipments.length,
        leftOut: leftOut.map((entry) => ({ ...entry, shipment: byCode.get(entry.code) ?? null })),
        notRouted,
      }
    },
    onSuccess: (outcome) => {
      setResult(outcome)
      void refresh()
    },
    onSettled: () => setStep(-1),
  })

  const reoptimise = useMutation({
    mutationFn: async (): Promise<ReoptimiseResult> => {
      setResult(null)
      setReoptimised(null)
      const { plan: after, messages } = await reoptimisePlan(id)
      queryClient.setQueryData(planKey(id), after)
      const arrivals = after.shipments
        .map((s) => s.plannedArrival)
        .filter((at): at is string => typeof at === 'string')
        .sort()
      return {
        routed: arrivals.length,
        first: arrivals[0] ?? null,
        last: arrivals[arrivals.length - 1] ?? null,
        notRouted: leftOutFromMessages(messages).notRouted,
      }
    },
    onSuccess: (outcome) => {
      setReoptimised(outcome)
      void refresh()
    },
  })

  // The moved row is re-drawn in its new place: the keyboard stays on the button that moved it.
  useEffect(() => {
    if (!refocus) return
    document.querySelector<HTMLElement>(`[data-stop-move="${refocus}"]`)?.focus()
    setRefocus(null)
  }, [refocus])

  const p = plan.data
  const mapZones = useMemo<MapZone[]>(() => {
    const all = zones.data?.data ?? []
    const named = p?.deliveryZoneIds ?? []
    return all.filter((z) => (named.length > 0 ? named.includes(z.id) : z.active))
  }, [zones.data, p?.deliveryZoneIds])
  const stops = useMemo<MapStop[]>(
    () =>
      (p?.shipments ?? []).flatMap((s, index) => {
        const point = deliveryPoint(s)
        return point
          ? [
              {
                id: s.id,
                sequence: s.stopSequence ?? index + 1,
                title: `${s.code}, ${s.deliveryAddress?.fullAddress ?? ''} (${words(s.status)})`,
                position: point,
                tone: stopTone(s.status),
              },
            ]
          : []
      }),
    [p?.shipments],
  )
  const depot =
    p?.depot && p.depot.latitude !== null && p.depot.longitude !== null
      ? ([p.depot.longitude, p.depot.latitude] as [number, number])
      : null

  const dragRow = usePointerReorder()

  if (plan.error)
    return (
      <>
        <PageHeader title="Delivery plan" />
        <ErrorNotice error={plan.error} what="Loading the plan" onRetry={() => void plan.refetch()} />
        <Link href="/delivery">Back to delivery</Link>
      </>
    )
  if (!p) return <Loading label="Loading the plan…" />
  const canModify = can('Shipments', 'Modify')
  const editable = p.status === 'Draft' || p.status === 'Scheduled'
  const reoptimisable = editable || p.status === 'Dispatched'
  const moves = canModify ? planMoves(p.status) : []
  const working =
    move.isPending || autobatch.isPending || remove.isPending || reoptimise.isPending || reorder.isPending
  const stopIds = p.shipments.map((s) => s.id)
  const moveStop = (index: number, to: number) => {
    if (working) return
    const ids = movedTo(stopIds, index, to)
    const shipment = p.shipments[index]
    if (!shipment || ids.every((shipmentId, i) => shipmentId === stopIds[i])) return
    reorder.mutate({ ids, code: shipment.code, focus: `${shipment.id}:${to < index ? 'up' : 'down'}` })
  }
  const reorderable = canModify && editable && p.shipments.length > 1
  const onMoveKey = (event: KeyboardEvent, index: number) => {
    if (!event.altKey || working) return
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault()
      moveStop(index, index + (event.key === 'ArrowUp' ? -1 : 1))
    }
  }

  return (
    <>
      <p className="breadcrumb">
        <Link href="/delivery">Delivery</Link> / {p.code}
      </p>
      <PageHeader title={`${p.code}${p.name ? `: ${p.name}` : ''}`}>
        <Status value={p.status} />
        {canModify && p.shipments.length > 0 && (
          <Link href={`/delivery/plans/${p.id}/driver`} className="button secondary">
            Driver’s stops
          </Link>
        )}
        {canModify && editable && (
          <button type="button" disabled={working} onClick={() => autobatch.mutate(p)}>
            {autobatch.isPending ? 'Autobatching…' : 'Autobatch'}
          </button>
        )}
        {canModify && reoptimisable && p.shipments.length > 0 && (
          <button type="button" className="secondary" disabled={working} onClick={() => reoptimise.mutate()}>
            {reoptimise.isPending ? 'Re-optimising…' : 'Re-optimise'}
          </button>
        )}
        {moves.map((m) => (
          <button
            key={m}
            type="button"
            className={m === 'cancel' ? 'danger' : 'secondary'}
            disabled={working}
            onClick={() => move.mutate(m)}
          >
            {MOVE_LABEL[m]}
          </button>
        ))}
      </PageHeader>
      {step >= 0 && <Progress label="Autobatch" step={step} steps={AUTOBATCH_STEPS} />}
      {autobatch.error ? <ErrorNotice error={autobatch.error} what="Autobatch" /> : null}
      {reoptimise.error ? <ErrorNotice error={reoptimise.error} what="Re-optimising the plan" /> : null}
      {move.error ? <ErrorNotice error={move.error} what="Changing the plan" /> : null}
      {remove.error ? <ErrorNotice error={remove.error} what="Taking the shipment off" /> : null}
      {reorder.error ? <ErrorNotice error={reorder.error} what="Re-ordering the stops" /> : null}
      {result && <AutobatchOutcome result={result} />}
      {reoptimised && <ReoptimiseOutcome result={reoptimised} />}
      <dl className="figures">
        <div className="figure">
          <dt>Day</dt>
          <dd>{day(p.scheduledDate)}</dd>
        </div>
        <div className="figure">
          <dt>Stops</dt>
          <dd>{integer(p.totals.shipmentCount)}</dd>
        </div>
        <div className="figure">
          <dt>Weight</dt>
          <dd>{quantity(p.totals.weight)} kg</dd>
        </div>
        <div className="figure">
          <dt>Route</dt>
          <dd>{kilometres(p.totals.distanceKm)}</dd>
        </div>
        <div className="figure">
          <dt>Driver</dt>
          <dd>{p.driverName ?? '—'}</dd>
        </div>
      </dl>
      <section className="card" aria-labelledby="pl-map">
        <h2 id="pl-map">Route</h2>
        <PlanMap
          label={`Map of plan ${p.code}: ${stops.length} numbered stops in delivery order${depot ? ' from the depot (D)' : ''}, and its delivery zones. The stops are listed in the table below.`}
          zones={mapZones}
          depot={depot}
          stops={stops}
        />
        <div className="legend" aria-hidden="true">
          <span>
            <span className="swatch open" />
            open stop
          </span>
          <span>
            <span className="swatch done" />
            delivered
          </span>
          <span>
            <span className="swatch problem" />
            failed or returned
          </span>
          <span>D depot · dashed line: the route in stop order</span>
        </div>
      </section>
      <section className="card" aria-labelledby="pl-stops">
        <h2 id="pl-stops">Stops in order</h2>
        {reorderable && (
          <p className="muted" id="pl-stops-how">
            Move a stop with its Up and Down buttons (Alt+Up and Alt+Down on them), or drag its row (on a
            touch screen, by its grip ⠿). Each move is saved at once; planned arrivals are cleared until the
            route is planned again.
          </p>
        )}
        <p className="visually-hidden" role="status">
          {moved}
        </p>
        <DataTable
          rowProps={reorderable ? (_row, index) => dragRow(index, moveStop, working) : undefined}
          caption={`Stops of ${p.code} in delivery order`}
          rows={p.shipments}
          rowKey={(row) => row.id}
          empty={
            editable
              ? 'No shipments yet: autobatch fills the plan from the day’s shipments.'
              : 'No shipments.'
          }
          columns={[
            { key: 'seq', header: 'Stop', number: true, render: (row) => row.stopSequence ?? '—' },
            {
              key: 'code',
              header: 'Shipment',
              nowrap: true,
              render: (row) => <Link href={`/delivery/shipments/${row.id}`}>{row.code}</Link>,
            },
            {
              key: 'address',
              header: 'Deliver to',
              render: (row) => row.deliveryAddress?.fullAddress ?? '—',
            },
            {
              key: 'arrival',
              header: 'Planned arrival',
              nowrap: true,
              render: (row) => clock(row.plannedArrival),
            },
            { key: 'weight', header: 'Weight (kg)', number: true, render: (row) => quantity(row.weight) },
            { key: 'status', header: 'State', render: (row) => <Status value={row.status} /> },
            ...(reorderable
              ? [
                  {
                    key: 'order',
                    header: 'Order',
                    render: (row: Shipment) => {
                      const index = stopIds.indexOf(row.id)
                      return (
                        // biome-ignore lint/a11y/noStaticElementInteractions: Alt+arrows reach the buttons inside
                        <span className="stop-moves" onKeyDown={(event) => onMoveKey(event, index)}>
                          <span className="drag-grip" aria-hidden="true" title="Drag to move">
                            ⠿
                          </span>
                          <button
                            type="button"
                            className="secondary"
                            // Not disabled: a disabled button would drop the keyboard's focus.
                            aria-disabled={index === 0 || undefined}
                            data-stop-move={`${row.id}:up`}
                            aria-label={`Up: move ${row.code} one stop earlier`}
                            aria-describedby="pl-stops-how"
                            onClick={() => moveStop(index, index - 1)}
                          >
                            Up
                          </button>
                          <button
                            type="button"
                            className="secondary"
                            aria-disabled={index === stopIds.length - 1 || undefined}
                            data-stop-move={`${row.id}:down`}
                            aria-label={`Down: move ${row.code} one stop later`}
                            aria-describedby="pl-stops-how"
                            onClick={() => moveStop(index, index + 1)}
                          >
                            Down
                          </button>
                        </span>
                      )
                    },
                  },
                ]
              : []),
            ...(canModify && editable
              ? [
                  {
                    key: 'off',
                    header: 'Take off',
                    render: (row: Shipment) => (
                      <button
                        type="button"
                        className="secondary"
                        disabled={working}
                        aria-label={`Take off ${row.code}`}
                        onClick={() => remove.mutate(row.id)}
                      >
                        Take off
                      </button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </section>
      <PickList planId={p.id} code={p.code} />
      <section className="card" aria-labelledby="pl-timeline">
        <h2 id="pl-timeline">Timeline</h2>
        {timeline.error ? (
          <ErrorNotice error={timeline.error} />
        ) : !timeline.data ? (
          <Loading />
        ) : timeline.data.entries.length === 0 ? (
          <p className="muted">Nothing has happened yet.</p>
        ) : (
          <ol className="timeline">
            {timeline.data.entries.map((entry) => (
              <li key={`${entry.id}-${entry.milestone}-${entry.at}`}>
                <strong>{dateTime(entry.at)}</strong> · {entry.subject === 'Plan' ? 'Plan' : entry.code}{' '}
                {words(entry.milestone).toLowerCase()}
                {entry.note ? ` (${entry.note})` : ''}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  )
}

function NotRoutedList({ entries }: { entries: LeftOutEntry[] }) {
  if (entries.length === 0) return null
  return (
    <>
      <p>On the plan but not routed (they come last, without a planned arrival):</p>
      <ul>
        {entries.map((entry) => (
          <li key={entry.code}>
            {entry.code}: {entry.detail}
          </li>
        ))}
      </ul>
    </>
  )
}

function AutobatchOutcome({ result }: { result: AutobatchResult }) {
  const added = result.after - result.before
  const warn = result.leftOut.length > 0 || result.notRouted.length > 0
  return (
    <section className={`notice ${warn ? 'warn' : 'ok'}`} role="status" aria-labelledby="ab-result">
      <p className="title" id="ab-result">
        Autobatch done: {integer(added)} shipment{added === 1 ? '' : 's'} added, {integer(result.after)} on
        the plan, {integer(result.leftOut.length)} left out.
      </p>
      {result.leftOut.length > 0 && (
        <>
          <p>Left out (still unassigned on the plan's day):</p>
          <ul>
            {result.leftOut.map(({ code, shipment, reason, detail }) => (
              <li key={code} title={detail}>
                {shipment ? <Link href={`/delivery/shipments/${shipment.id}`}>{code}</Link> : code}
                {shipment?.deliveryAddress?.fullAddress ? `, ${shipment.deliveryAddress.fullAddress}` : ''}:{' '}
                {LEFT_OUT_WORDS[reason]}
              </li>
            ))}
          </ul>
          <p>
            Add the missing coordinates, widen the plan's zones or the shipments' delivery windows, or use a
            larger vehicle, a longer shift or a second plan for the rest.
          </p>
        </>
      )}
      <NotRoutedList entries={result.notRouted} />
    </section>
  )
}

function ReoptimiseOutcome({ result }: { result: ReoptimiseResult }) {
  return (
    <section
      className={`notice ${result.notRouted.length > 0 ? 'warn' : 'ok'}`}
      role="status"
      aria-labelledby="ro-result"
    >
      <p className="title" id="ro-result">
        Re-optimised: {integer(result.routed)} stop{result.routed === 1 ? '' : 's'} with a planned arrival
        {result.first && result.last ? `, from ${clock(result.first)} to ${clock(result.last)}` : ''}.
      </p>
      <NotRoutedList entries={result.notRouted} />
    </section>
  )
}
