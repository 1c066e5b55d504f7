import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useCallback, useState } from 'react'
import { Link } from 'wouter'
import {
  createDeliveryZoneMutation,
  deleteDeliveryZoneMutation,
  getAllDeliveryZonesOptions,
  updateDeliveryZoneMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { closeRing, formatCorners, openRing, type Position, parseCorners, polygonsOf } from '../../lib/geo'
import { ZoneMap } from './LeafletMap'

interface Draft {
  id: string | null
  name: string
  colour: string
  active: boolean
  corners: Position[]
  text: string
  /** The zone had holes or several parts: saving keeps only the outline edited here. */
  simplified: boolean
}

const NEW_DRAFT: Draft = {
  id: null,
  name: '',
  colour: '#2563eb',
  active: true,
  corners: [],
  text: '',
  simplified: false,
}

/** Delivery zones drawn on the map: choose one to move its corners, or draw a new one. */
export default function Zones() {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const zones = useQuery(getAllDeliveryZonesOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name' } }))
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problems, setProblems] = useState<string[]>([])
  const [saved, setSaved] = useState<string | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getAllDeliveryZones' }] })
  const create = useMutation({ ...createDeliveryZoneMutation(), onSuccess: refresh })
  const update = useMutation({ ...updateDeliveryZoneMutation(), onSuccess: refresh })
  const remove = useMutation({ ...deleteDeliveryZoneMutation(), onSuccess: refresh })
  const error = create.error ?? update.error ?? remove.error
  const canModify = can('Shipments', 'Modify')
  const list = zones.data?.data ?? []

  const choose = useCallback(
    (id: string) => {
      const zone = zones.data?.data.find((z) => z.id === id)
      if (!zone) return
      const parts = polygonsOf(zone.polygon)
      const outer = openRing(parts[0]?.[0] ?? [])
      setSaved(null)
      setProblems([])
      setDraft({
        id: zone.id,
        name: zone.name,
        colour: zone.colour ?? '#2563eb',
        active: zone.active,
        corners: outer,
        text: formatCorners(outer),
        simplified: parts.length > 1 || (parts[0]?.length ?? 0) > 1,
      })
    },
    [zones.data],
  )
  const onCorners = useCallback((corners: Position[]) => {
    setDraft((current) => (current ? { ...current, corners, text: formatCorners(corners) } : current))
  }, [])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!draft) return
    const parsed = parseCorners(draft.text)
    const found = [...parsed.problems]
    if (!draft.name.trim()) found.unshift('Give the zone a name.')
    setProblems(found)
    if (found.length > 0) return
    const body = {
      name: draft.name.trim(),
      colour: draft.colour,
      active: draft.active,
      polygon: { type: 'Polygon', coordinates: [closeRing(parsed.corners)] },
    }
    const done = (name: string) => () => {
      setSaved(name)
      setDraft(null)
    }
    if (draft.id)
      update.mutate({ path: { deliveryZoneId: draft.id }, body }, { onSuccess: done(`Saved ${body.name}.`) })
    else create.mutate({ body }, { onSuccess: done(`Created ${body.name}.`) })
  }

  return (
    <>
      <p className="breadcrumb">
        <Link href="/delivery">Delivery</Link> / Zones
      </p>
      <PageHeader title="Delivery zones">
        {canModify && (
          <button
            type="button"
            onClick={() => {
              setSaved(null)
              setProblems([])
              setDraft({ ...NEW_DRAFT })
            }}
          >
            Draw a new zone
          </button>
        )}
      </PageHeader>
      {saved && (
        <div className="notice ok" role="status">
          {saved}
        </div>
      )}
      {error ? <ErrorNotice error={error} what="Saving the zone" /> : null}
      {zones.error ? (
        <ErrorNotice error={zones.error} what="Loading zones" onRetry={() => void zones.refetch()} />
      ) : !zones.data ? (
        <Loading label="Loading zones…" />
      ) : (
        <div className="grid map-first">
          <section className="card" aria-labelledby="z-map">
            <h2 id="z-map">Map</h2>
            <p className="muted">
              {draft
                ? draft.id
                  ? 'Drag the corners of the zone to move them, or type them in the form.'
                  : 'Click on the map to add corners in order (at least 3), or type them in the form.'
                : 'Choose a zone on the map or in the list to edit it.'}
            </p>
            <ZoneMap
              label="Map of the delivery zones. Every zone is also listed in the table, and its corners can be typed in the form."
              zones={list}
              selectedId={draft?.id ?? null}
              onSelect={canModify ? choose : () => {}}
              corners={draft ? draft.corners : null}
              onCorners={onCorners}
              drawing={Boolean(draft && !draft.id)}
            />
          </section>
          <div>
            {draft && (
              <form className="card" onSubmit={submit} aria-labelledby="z-form" noValidate>
                <h2 id="z-form">{draft.id ? `Edit ${draft.name || 'zone'}` : 'New zone'}</h2>
                {problems.length > 0 && (
                  <div className="notice error" role="alert">
                    <p className="title">The zone was not saved</p>
                    <ul>
                      {problems.map((p) => (
                        <li key={p}>{p}</li>
                      ))}
                    </ul>
                  </div>
                )}
                {draft.simplified && (
                  <div className="notice warn">
                    This zone has holes or several parts; saving here keeps only the outline shown.
                  </div>
                )}
                <Field label="Zone name">
                  {(control) => (
                    <input
                      {...control}
                      value={draft.name}
                      onChange={(event) => setDraft({ ...draft, name: event.target.value })}
                    />
                  )}
                </Field>
                <div className="form-row">
                  <Field label="Colour">
                    {(control) => (
                      <input
                        {...control}
                        type="color"
                        value={draft.colour}
                        onChange={(event) => setDraft({ ...draft, colour: event.target.value })}
                      />
                    )}
                  </Field>
                  <div className="field">
                    <label className="check">
                      <input
                        type="checkbox"
                        checked={draft.active}
                        onChange={(event) => setDraft({ ...draft, active: event.target.checked })}
                      />
                      Active (autobatch draws from it)
                    </label>
                  </div>
                </div>
                <Field label="Corners" hint="One corner per line: latitude, longitude">
                  {(control) => (
                    <textarea
                      {...control}
                      rows={8}
                      className="mono"
                      value={draft.text}
                      onChange={(event) => {
                        const text = event.target.value
                        const parsed = parseCorners(text)
                        setDraft({
                          ...draft,
                          text,
                          ...(parsed.problems.length === 0 ? { corners: parsed.corners } : {}),
                        })
                      }}
                    />
                  )}
                </Field>
                <div className="actions">
                  <button type="submit" disabled={create.isPending || update.isPending}>
                    {draft.id ? 'Save zone' : 'Create zone'}
                  </button>
                  {!draft.id && draft.corners.length > 0 && (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => onCorners(draft.corners.slice(0, -1))}
                    >
                      Undo last corner
                    </button>
                  )}
                  <button type="button" className="secondary" onClick={() => setDraft(null)}>
                    Cancel
                  </button>
                  {draft.id && can('Shipments', 'Delete') && (
                    <button
                      type="button"
                      className="danger"
                      disabled={remove.isPending}
                      onClick={() => {
                        const id = draft.id as string
                        remove.mutate({ path: { deliveryZoneId: id } }, { onSuccess: () => setDraft(null) })
                      }}
                    >
                      Delete zone
                    </button>
                  )}
                </div>
              </form>
            )}
            <section className="card" aria-labelledby="z-list">
              <h2 id="z-list">Zones</h2>
              <DataTable
                caption="Delivery zones"
                rows={list}
                rowKey={(row) => row.id}
                empty="No zones yet: draw one."
                columns={[
                  {
                    key: 'name',
                    header: 'Zone',
                    render: (row) =>
                      canModify ? (
                        <button type="button" className="link" onClick={() => choose(row.id)}>
                          {row.name}
                        </button>
                      ) : (
                        row.name
                      ),
                  },
                  { key: 'active', header: 'Active', render: (row) => (row.active ? 'Yes' : 'No') },
                  {
                    key: 'corners',
                    header: 'Corners',
                    number: true,
                    render: (row) => openRing(polygonsOf(row.polygon)[0]?.[0] ?? []).length,
                  },
                ]}
              />
            </section>
          </div>
        </div>
      )}
    </>
  )
}
