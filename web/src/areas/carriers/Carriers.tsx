import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  configureCarrierMutation,
  deleteConfiguredCarrierMutation,
  getCarriersOptions,
  updateCarrierMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { FulfillmentProviderResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { EditOrRemove } from '../../components/ConfirmRemove'
import { DataTable } from '../../components/DataTable'
import { EditableList, FormButtons } from '../../components/EditableList'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { mergedProblems } from '../../lib/form-errors'
import { words } from '../../lib/format'

type Carrier = FulfillmentProviderResponse

/** The carriers this business ships with: account, default, and credentials that are never shown back. */
export default function Carriers() {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const canModify = can('Integrations', 'Modify')
  const configured = useQuery(getCarriersOptions({ query: { configured: true } }))
  const remove = useMutation({
    ...deleteConfiguredCarrierMutation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getCarriers' }] }),
  })
  return (
    <EditableList<Carrier>
      title="Carriers"
      newLabel="Add a carrier"
      canAdd={canModify}
      rowKey={(row) => String(row.id)}
      form={(carrier, done) => <CarrierForm carrier={carrier} onDone={done} />}
    >
      {({ edit, say }) => (
        <>
          {remove.error ? <ErrorNotice error={remove.error} what="Removing the carrier" /> : null}
          <Loaded query={configured} what="Loading the carriers">
            {(loaded) => (
              <DataTable
                caption="Carriers of this business"
                rows={loaded.data}
                rowKey={(row) => String(row.id)}
                empty="No carrier yet: add one to book deliveries with it."
                columns={[
                  { key: 'name', header: 'Carrier', render: (row) => row.name },
                  { key: 'type', header: 'Type', render: (row) => words(row.type) },
                  {
                    key: 'account',
                    header: 'Account',
                    render: (row) => row.configuration?.accountReference ?? '—',
                  },
                  {
                    key: 'credentials',
                    header: 'Credentials',
                    render: (row) => (row.configuration?.hasCredentials ? 'Set' : 'Not set'),
                  },
                  {
                    key: 'state',
                    header: 'State',
                    render: (row) => (
                      <>
                        <span className={`badge ${row.configuration?.enabled ? 'good' : ''}`}>
                          {row.configuration?.enabled ? 'Enabled' : 'Disabled'}
                        </span>
                        {row.configuration?.isDefault ? <span className="badge">Default</span> : null}
                      </>
                    ),
                  },
                  ...(canModify
                    ? [
                        {
                          key: 'edit',
                          header: 'Change',
                          render: (row: Carrier) => (
                            <EditOrRemove
                              name={row.name}
                              removing={remove.isPending}
                              onEdit={() => edit(row)}
                              onRemove={
                                row.configuration
                                  ? () =>
                                      remove.mutate(
                                        { path: { carrierId: row.configuration?.id ?? '' } },
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

interface Secret {
  name: string
  value: string
}

function CarrierForm({
  carrier,
  onDone,
}: {
  carrier: Carrier | null
  onDone: (message: string | null) => void
}) {
  const queryClient = useQueryClient()
  const catalogue = useQuery({ ...getCarriersOptions({ query: { configured: false } }), enabled: !carrier })
  const [carrierId, setCarrierId] = useState(carrier ? String(carrier.id) : '')
  const [account, setAccount] = useState(carrier?.configuration?.accountReference ?? '')
  const [enabled, setEnabled] = useState(carrier?.configuration?.enabled ?? true)
  const [isDefault, setIsDefault] = useState(carrier?.configuration?.isDefault ?? false)
  const [secrets, setSecrets] = useState<Secret[]>([{ name: '', value: '' }])
  const [forget, setForget] = useState(false)
  const [local, setLocal] = useState<Record<string, string>>({})
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getCarriers' }] })
  const configure = useMutation({ ...configureCarrierMutation(), onSuccess: refresh })
  const update = useMutation({ ...updateCarrierMutation(), onSuccess: refresh })
  const error = carrier ? update.error : configure.error
  const problems = mergedProblems(local, error)
  const title = carrier ? `Edit ${carrier.name}` : 'New carrier'
  const hasStored = carrier?.configuration?.hasCredentials ?? false

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!carrier && !carrierId) found.carrierId = 'Choose a carrier.'
    const given = secrets.filter((s) => s.name.trim() || s.value)
    if (given.some((s) => !s.name.trim())) found.credentials = 'Name each credential (e.g. apiKey).'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    // Credentials are write-only: sent only when typed (or to remove them), never read back.
    const credentials = forget
      ? { credentials: null }
      : given.length > 0
        ? { credentials: Object.fromEntries(given.map((s) => [s.name.trim(), s.value])) }
        : {}
    const fields = { accountReference: account.trim() || null, enabled, isDefault, ...credentials }
    if (carrier)
      update.mutate(
        { path: { carrierId: carrier.id }, body: fields },
        { onSuccess: () => onDone(`Saved ${carrier.name}.`) },
      )
    else {
      const name = catalogue.data?.data.find((c) => String(c.id) === carrierId)?.name ?? 'the carrier'
      configure.mutate(
        { body: { carrierId: Number(carrierId), ...fields } },
        { onSuccess: () => onDone(`Added ${name}.`) },
      )
    }
  }

  const choices = (catalogue.data?.data ?? []).filter((c) => !c.configured)
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      {error ? <ErrorNotice error={error} what="Saving the carrier" /> : null}
      <div className="form-row">
        {!carrier && (
          <Field label="Carrier" problem={problems.carrierId}>
            {(control) => (
              <select {...control} value={carrierId} onChange={(e) => setCarrierId(e.target.value)}>
                <option value="">{catalogue.data ? 'Choose…' : 'Loading the catalogue…'}</option>
                {choices.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({words(c.type)})
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field
          label="Account reference"
          hint="Your account number with the carrier"
          problem={problems.accountReference}
        >
          {(control) => <input {...control} value={account} onChange={(e) => setAccount(e.target.value)} />}
        </Field>
      </div>
      <fieldset className="credentials">
        <legend>Credentials</legend>
        <p className="hint">
          {hasStored
            ? 'Credentials are set. They are never shown again; type new ones to replace them, or leave these empty to keep them.'
            : 'Not set. What the carrier gave you (an API key, a password…), stored encrypted and never shown again.'}
        </p>
        {problems.credentials && <p className="problem">{problems.credentials}</p>}
        {secrets.map((secret, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions the user fills in
          <div className="form-row" key={index}>
            <Field label={`Credential ${index + 1} name`}>
              {(control) => (
                <input
                  {...control}
                  autoComplete="off"
                  value={secret.name}
                  disabled={forget}
                  onChange={(e) =>
                    setSecrets((all) => all.map((s, i) => (i === index ? { ...s, name: e.target.value } : s)))
                  }
                />
              )}
            </Field>
            <Field label={`Credential ${index + 1} value`}>
              {(control) => (
                <input
                  {...control}
                  type="password"
                  autoComplete="new-password"
                  value={secret.value}
                  disabled={forget}
                  onChange={(e) =>
                    setSecrets((all) =>
                      all.map((s, i) => (i === index ? { ...s, value: e.target.value } : s)),
                    )
                  }
                />
              )}
            </Field>
          </div>
        ))}
        <div className="actions">
          <button
            type="button"
            className="link"
            disabled={forget}
            onClick={() => setSecrets((all) => [...all, { name: '', value: '' }])}
          >
            Add another credential
          </button>
          {hasStored && (
            <label className="check">
              <input type="checkbox" checked={forget} onChange={(e) => setForget(e.target.checked)} />
              Remove the stored credentials
            </label>
          )}
        </div>
      </fieldset>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled (deliveries may use it)
        </label>
        <label className="check">
          <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
          The default carrier
        </label>
      </div>
      <FormButtons
        label={carrier ? 'Save carrier' : 'Add carrier'}
        pending={configure.isPending || update.isPending}
        onCancel={() => onDone(null)}
      />
    </form>
  )
}
