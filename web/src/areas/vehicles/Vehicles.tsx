import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  createVehicleMutation,
  getVehiclesOptions,
  updateVehicleMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { VehicleResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { EditableList, FormButtons } from '../../components/EditableList'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { mergedProblems } from '../../lib/form-errors'

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/

/** The business's vehicles: what each may carry and its shift, as planning a day reads them. */
export default function Vehicles() {
  const { can } = useWorkspace()
  const canModify = can('Vehicles', 'Modify')
  const vehicles = useQuery(getVehiclesOptions({ query: { Page: 1, PageSize: 100, $orderby: 'name' } }))
  return (
    <EditableList<VehicleResponse>
      title="Vehicles"
      newLabel="New vehicle"
      canAdd={canModify}
      rowKey={(row) => row.id}
      form={(vehicle, done) => <VehicleForm vehicle={vehicle} onDone={done} />}
    >
      {({ edit }) => (
        <Loaded query={vehicles} what="Loading the vehicles">
          {(loaded) => (
            <DataTable
              caption="Vehicles"
              rows={loaded.data}
              rowKey={(row) => row.id}
              empty="No vehicle yet."
              columns={[
                {
                  key: 'registration',
                  header: 'Registration',
                  nowrap: true,
                  render: (row) => row.registration,
                },
                { key: 'name', header: 'Name', render: (row) => row.name },
                {
                  key: 'weight',
                  header: 'Largest load (kg)',
                  number: true,
                  render: (row) => (row.maxWeight === null ? 'No limit' : String(row.maxWeight)),
                },
                {
                  key: 'volume',
                  header: 'Largest load (m³)',
                  number: true,
                  render: (row) => (row.maxVolume === null ? 'No limit' : String(row.maxVolume)),
                },
                {
                  key: 'shift',
                  header: 'Shift',
                  nowrap: true,
                  render: (row) =>
                    row.shiftStart && row.shiftEnd ? `${row.shiftStart}–${row.shiftEnd}` : 'The day’s',
                },
                {
                  key: 'active',
                  header: 'State',
                  render: (row) => (
                    <span className={`badge ${row.active ? 'good' : ''}`}>
                      {row.active ? 'Active' : 'Inactive'}
                    </span>
                  ),
                },
                {
                  key: 'edit',
                  header: 'Edit',
                  render: (row) =>
                    canModify ? (
                      <button
                        type="button"
                        className="link"
                        aria-label={`Edit ${row.name} (${row.registration})`}
                        onClick={() => edit(row)}
                      >
                        Edit
                      </button>
                    ) : (
                      ''
                    ),
                },
              ]}
            />
          )}
        </Loaded>
      )}
    </EditableList>
  )
}

function VehicleForm({
  vehicle,
  onDone,
}: {
  vehicle: VehicleResponse | null
  onDone: (message: string | null) => void
}) {
  const queryClient = useQueryClient()
  const [registration, setRegistration] = useState(vehicle?.registration ?? '')
  const [name, setName] = useState(vehicle?.name ?? '')
  const [weight, setWeight] = useState(
    vehicle?.maxWeight === null || !vehicle ? '' : String(vehicle.maxWeight),
  )
  const [volume, setVolume] = useState(
    vehicle?.maxVolume === null || !vehicle ? '' : String(vehicle.maxVolume),
  )
  const [shiftStart, setShiftStart] = useState(vehicle?.shiftStart ?? '')
  const [shiftEnd, setShiftEnd] = useState(vehicle?.shiftEnd ?? '')
  const [active, setActive] = useState(vehicle?.active ?? true)
  const [local, setLocal] = useState<Record<string, string>>({})
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getVehicles' }] })
  const create = useMutation({ ...createVehicleMutation(), onSuccess: refresh })
  const update = useMutation({ ...updateVehicleMutation(), onSuccess: refresh })
  const error = vehicle ? update.error : create.error
  const problems = mergedProblems(local, error)
  const title = vehicle ? `Edit ${vehicle.name}` : 'New vehicle'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!registration.trim()) found.registration = 'Enter the registration.'
    if (!name.trim()) found.name = 'Give the vehicle a name.'
    const number = (text: string, field: string) => {
      if (!text.trim()) return null
      const n = Number(text)
      if (!Number.isFinite(n) || n <= 0) found[field] = 'A number above 0, or empty for no limit.'
      return n
    }
    const maxWeight = number(weight, 'maxWeight')
    const maxVolume = number(volume, 'maxVolume')
    if (Boolean(shiftStart) !== Boolean(shiftEnd)) found.shiftEnd = 'Give both ends of the shift, or neither.'
    if (shiftStart && !HH_MM.test(shiftStart)) found.shiftStart = 'A time such as 07:30.'
    if (shiftEnd && !HH_MM.test(shiftEnd)) found.shiftEnd = 'A time such as 17:00.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    const body = {
      registration: registration.trim(),
      name: name.trim(),
      maxWeight,
      maxVolume,
      active,
      shiftStart: shiftStart || null,
      shiftEnd: shiftEnd || null,
      // A PUT replaces the vehicle: where it starts and ends and its breaks stay as they are.
      ...(vehicle
        ? {
            startLocation: vehicle.startLocation ?? null,
            endLocation: vehicle.endLocation ?? null,
            breaks: vehicle.breaks ?? [],
          }
        : {}),
    }
    if (vehicle)
      update.mutate(
        { path: { vehicleId: vehicle.id }, body },
        { onSuccess: () => onDone(`Saved ${body.name}.`) },
      )
    else create.mutate({ body }, { onSuccess: () => onDone(`Added ${body.name}.`) })
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      {error ? <ErrorNotice error={error} what="Saving the vehicle" /> : null}
      <div className="form-row">
        <Field label="Registration" problem={problems.registration}>
          {(control) => (
            <input {...control} value={registration} onChange={(e) => setRegistration(e.target.value)} />
          )}
        </Field>
        <Field label="Name" problem={problems.name}>
          {(control) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Largest load (kg)" hint="Empty: no limit" problem={problems.maxWeight}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={weight}
              onChange={(e) => setWeight(e.target.value)}
            />
          )}
        </Field>
        <Field label="Largest load (m³)" hint="Empty: no limit" problem={problems.maxVolume}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={volume}
              onChange={(e) => setVolume(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="form-row">
        <Field label="Shift starts" hint="hh:mm; empty: the planned day’s" problem={problems.shiftStart}>
          {(control) => (
            <input
              {...control}
              type="time"
              value={shiftStart}
              onChange={(e) => setShiftStart(e.target.value)}
            />
          )}
        </Field>
        <Field label="Shift ends" hint="hh:mm, after the start" problem={problems.shiftEnd}>
          {(control) => (
            <input {...control} type="time" value={shiftEnd} onChange={(e) => setShiftEnd(e.target.value)} />
          )}
        </Field>
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
          Active (planning may use it)
        </label>
      </div>
      <FormButtons
        label={vehicle ? 'Save vehicle' : 'Add vehicle'}
        pending={create.isPending || update.isPending}
        onCancel={() => onDone(null)}
      />
    </form>
  )
}
