import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  createDimensionPresetMutation,
  deletePackageSizeMutation,
  getPackageSizesOptions,
  updateDimensionPresetMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type {
  CreateDimensionPresetRequest,
  DimensionPresetResponse,
} from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { EditOrRemove } from '../../components/ConfirmRemove'
import { DataTable } from '../../components/DataTable'
import { EditableList, FormButtons } from '../../components/EditableList'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { mergedProblems } from '../../lib/form-errors'
import { quantity } from '../../lib/format'

type Preset = DimensionPresetResponse
type DimensionUnit = CreateDimensionPresetRequest['dimensionUnit']
type WeightUnit = CreateDimensionPresetRequest['weightUnit']

const DIMENSION_UNITS: Record<DimensionUnit, string> = { Mm: 'mm', Cm: 'cm', M: 'm', In: 'in', Ft: 'ft' }
const WEIGHT_UNITS: Record<WeightUnit, string> = { G: 'g', Kg: 'kg', Lb: 'lb', Oz: 'oz' }

/** The boxes and satchels the business packs into: sizes, the most each may weigh, and the default. */
export default function PackageSizes() {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const canModify = can('Products', 'Modify')
  const canDelete = can('Products', 'Delete')
  const presets = useQuery(getPackageSizesOptions())
  const remove = useMutation({
    ...deletePackageSizeMutation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getPackageSizes' }] }),
  })
  return (
    <EditableList<Preset>
      title="Package sizes"
      newLabel="New package size"
      canAdd={canModify}
      rowKey={(row) => row.id}
      form={(preset, done) => <PresetForm preset={preset} onDone={done} />}
    >
      {({ edit, say }) => (
        <>
          {remove.error ? <ErrorNotice error={remove.error} what="Removing the package size" /> : null}
          <Loaded query={presets} what="Loading the package sizes">
            {(rows) => (
              <DataTable
                caption="Package sizes"
                rows={rows}
                rowKey={(row) => row.id}
                empty="No package size yet."
                columns={[
                  {
                    key: 'name',
                    header: 'Name',
                    render: (row) => (
                      <>
                        {row.name} {row.isDefault ? <span className="badge good">Default</span> : null}
                      </>
                    ),
                  },
                  {
                    key: 'size',
                    header: 'Length × width × height',
                    nowrap: true,
                    render: (row) =>
                      `${quantity(row.length)} × ${quantity(row.width)} × ${quantity(row.height)} ${DIMENSION_UNITS[row.dimensionUnit]}`,
                  },
                  {
                    key: 'weight',
                    header: 'Heaviest',
                    number: true,
                    render: (row) =>
                      row.maxWeight === null
                        ? 'No limit'
                        : `${quantity(row.maxWeight)} ${WEIGHT_UNITS[row.weightUnit]}`,
                  },
                  { key: 'country', header: 'Country', render: (row) => row.country ?? 'Any' },
                  ...(canModify || canDelete
                    ? [
                        {
                          key: 'change',
                          header: 'Change',
                          render: (row: Preset) => (
                            <EditOrRemove
                              name={row.name}
                              removing={remove.isPending}
                              onEdit={canModify ? () => edit(row) : undefined}
                              onRemove={
                                canDelete
                                  ? () =>
                                      remove.mutate(
                                        { path: { presetId: row.id } },
                                        { onSuccess: () => say(`Removed ${row.name}.`) },
                                      )
                                  : undefined
                              }
                            />
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            )}
          </Loaded>
        </>
      )}
    </EditableList>
  )
}

/** A unit chosen from the API's names, shown as their symbols. */
function unitField<Unit extends string>(
  label: string,
  problem: string | undefined,
  units: Record<Unit, string>,
  value: Unit,
  set: (unit: Unit) => void,
) {
  return (
    <Field label={label} problem={problem}>
      {(control) => (
        <select {...control} value={value} onChange={(e) => set(e.target.value as Unit)}>
          {Object.entries<string>(units).map(([unit, symbol]) => (
            <option key={unit} value={unit}>
              {symbol}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

const text = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value)

function PresetForm({ preset, onDone }: { preset: Preset | null; onDone: (message: string | null) => void }) {
  const queryClient = useQueryClient()
  const [name, setName] = useState(preset?.name ?? '')
  const [length, setLength] = useState(text(preset?.length))
  const [width, setWidth] = useState(text(preset?.width))
  const [height, setHeight] = useState(text(preset?.height))
  const [dimensionUnit, setDimensionUnit] = useState<DimensionUnit>(preset?.dimensionUnit ?? 'Cm')
  const [maxWeight, setMaxWeight] = useState(text(preset?.maxWeight))
  const [weightUnit, setWeightUnit] = useState<WeightUnit>(preset?.weightUnit ?? 'Kg')
  const [country, setCountry] = useState(preset?.country ?? '')
  const [isDefault, setIsDefault] = useState(preset?.isDefault ?? false)
  const [local, setLocal] = useState<Record<string, string>>({})
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getPackageSizes' }] })
  const create = useMutation({ ...createDimensionPresetMutation(), onSuccess: refresh })
  const update = useMutation({ ...updateDimensionPresetMutation(), onSuccess: refresh })
  const error = preset ? update.error : create.error
  const problems = mergedProblems(local, error)
  const title = preset ? `Edit ${preset.name}` : 'New package size'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!name.trim()) found.name = 'Give the package size a name.'
    const size = (value: string, field: string, optional = false) => {
      if (optional && !value.trim()) return null
      const n = Number(value)
      if (!value.trim() || !Number.isFinite(n) || n <= 0)
        found[field] = optional ? 'A number above 0, or empty for no limit.' : 'A number above 0.'
      return n
    }
    const body = {
      name: name.trim(),
      length: size(length, 'length') ?? 0,
      width: size(width, 'width') ?? 0,
      height: size(height, 'height') ?? 0,
      dimensionUnit,
      maxWeight: size(maxWeight, 'maxWeight', true),
      weightUnit,
      isDefault,
      country: country.trim() ? country.trim().toUpperCase() : null,
    }
    setLocal(found)
    if (Object.keys(found).length > 0) return
    if (preset)
      update.mutate(
        { path: { presetId: preset.id }, body },
        { onSuccess: () => onDone(`Saved ${body.name}.`) },
      )
    else create.mutate({ body }, { onSuccess: () => onDone(`Added ${body.name}.`) })
  }

  const sizeField = (label: string, field: string, value: string, set: (v: string) => void) => (
    <Field label={label} problem={problems[field]}>
      {(control) => (
        <input {...control} inputMode="decimal" value={value} onChange={(e) => set(e.target.value)} />
      )}
    </Field>
  )
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      {error ? <ErrorNotice error={error} what="Saving the package size" /> : null}
      <div className="form-row">
        <Field label="Name" problem={problems.name}>
          {(control) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Country" hint="Two letters (ZA); empty: any" problem={problems.country}>
          {(control) => (
            <input {...control} value={country} maxLength={2} onChange={(e) => setCountry(e.target.value)} />
          )}
        </Field>
      </div>
      <div className="form-row">
        {sizeField('Length', 'length', length, setLength)}
        {sizeField('Width', 'width', width, setWidth)}
        {sizeField('Height', 'height', height, setHeight)}
        {unitField('Size unit', problems.dimensionUnit, DIMENSION_UNITS, dimensionUnit, setDimensionUnit)}
      </div>
      <div className="form-row">
        {sizeField('Heaviest load', 'maxWeight', maxWeight, setMaxWeight)}
        {unitField('Weight unit', problems.weightUnit, WEIGHT_UNITS, weightUnit, setWeightUnit)}
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
          The default package size
        </label>
      </div>
      <FormButtons
        label={preset ? 'Save package size' : 'Add package size'}
        pending={create.isPending || update.isPending}
        onCancel={() => onDone(null)}
      />
    </form>
  )
}
