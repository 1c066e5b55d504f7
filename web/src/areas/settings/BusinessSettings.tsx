import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import {
  getAllBusinessConfigurationsOptions,
  saveBusinessAppConfigurationMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { AppConfigurationResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { PageHeader } from '../../components/PageHeader'
import { mergedProblems } from '../../lib/form-errors'
import { dateTime, words } from '../../lib/format'
import { ENUM_VALUES, settingProblem } from './setting-rules'
import { TimeZoneAndCurrency } from './TimeZoneAndCurrency'

/** The settings the platform reads, by the module that reads them, as one form. */
export default function BusinessSettings() {
  const { business } = useWorkspace()
  const settings = useQuery(getAllBusinessConfigurationsOptions())
  return (
    <>
      <PageHeader title="Business settings" />
      <p className="muted">
        How Cartage behaves for {business.displayName}. A setting left at its default follows Cartage’s
        default.
      </p>
      <TimeZoneAndCurrency />
      <Loaded query={settings} what="Loading the settings">
        {(loaded) => <SettingsForm key={business.id} items={loaded.data.filter((s) => s.module !== null)} />}
      </Loaded>
    </>
  )
}

function SettingsForm({ items }: { items: readonly AppConfigurationResponse[] }) {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const canModify = can('Settings', 'Modify')
  const original = Object.fromEntries(items.map((s) => [s.key, s.value ?? '']))
  const [values, setValues] = useState<Record<string, string>>(original)
  const [resets, setResets] = useState<Set<string>>(new Set())
  const [local, setLocal] = useState<Record<string, string>>({})
  const [saved, setSaved] = useState<string | null>(null)
  const save = useMutation({
    ...saveBusinessAppConfigurationMutation(),
    onSuccess: () =>
      Promise.all(
        ['getAllBusinessConfigurations', 'getBusiness'].map((_id) =>
          queryClient.invalidateQueries({ queryKey: [{ _id }] }),
        ),
      ),
  })
  const problems = mergedProblems(local, save.error)
  // What the server holds now (after a save, its normalised values and the defaults put back).
  const current = JSON.stringify(original)
  useEffect(() => {
    setValues(JSON.parse(current) as Record<string, string>)
    setResets(new Set())
  }, [current])
  const modules = [...new Set(items.map((s) => s.module ?? ''))]

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSaved(null)
    const body: Record<string, string | null> = {}
    const found: Record<string, string> = {}
    for (const item of items) {
      if (resets.has(item.key)) {
        body[item.key] = null
        continue
      }
      const value = values[item.key] ?? ''
      if (value === (original[item.key] ?? '')) continue
      if (value.trim() === '') {
        // Emptying a setting puts it back to its default.
        body[item.key] = null
        continue
      }
      const problem = settingProblem(item.key, item.type, value)
      if (problem) found[item.key] = `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`
      body[item.key] = value.trim()
    }
    setLocal(found)
    if (Object.keys(found).length > 0) return
    const count = Object.keys(body).length
    if (count === 0) {
      setSaved('Nothing changed.')
      return
    }
    save.mutate(
      { body },
      {
        onSuccess: () => {
          setSaved(`Saved ${count} ${count === 1 ? 'setting' : 'settings'}.`)
        },
      },
    )
  }

  const control = (
    item: AppConfigurationResponse,
    props: Parameters<Parameters<typeof Field>[0]['children']>[0],
  ) => {
    const value = resets.has(item.key) ? '' : (values[item.key] ?? '')
    const onChange = (next: string) => {
      setValues((current) => ({ ...current, [item.key]: next }))
      setResets((current) => {
        const copy = new Set(current)
        copy.delete(item.key)
        return copy
      })
    }
    const disabled = !canModify || resets.has(item.key)
    if (item.type === 'boolean')
      return (
        <select {...props} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          {value === '' && <option value="">Default</option>}
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      )
    const choices = item.type === 'enum' ? ENUM_VALUES[item.key] : undefined
    if (choices)
      return (
        <select {...props} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          {!choices.includes(value) && <option value={value}>{value || 'Default'}</option>}
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {words(choice)}
            </option>
          ))}
        </select>
      )
    return (
      <input
        {...props}
        value={value}
        disabled={disabled}
        inputMode={item.type === 'decimal' || item.type === 'integer' ? 'decimal' : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Business settings">
      {save.error ? <ErrorNotice error={save.error} what="Saving the settings" /> : null}
      {saved && (
        <div className="notice ok" role="status">
          {saved}
        </div>
      )}
      {modules.map((module) => (
        <fieldset key={module} className="card">
          <legend>{words(module)}</legend>
          {items
            .filter((item) => item.module === module)
            .map((item) => (
              <div key={item.key}>
                <Field
                  label={`${words(item.key.split('.').pop())} (${item.key})`}
                  hint={`${item.description ?? ''}${
                    resets.has(item.key)
                      ? ' · Back to the default when saved.'
                      : item.isDefault
                        ? ' · Default.'
                        : item.dateModified
                          ? ` · Changed ${dateTime(item.dateModified)}.`
                          : ''
                  }`}
                  problem={problems[item.key]}
                >
                  {(props) => control(item, props)}
                </Field>
                {canModify && !item.isDefault && !resets.has(item.key) && (
                  <button
                    type="button"
                    className="link"
                    aria-label={`Use the default for ${item.key}`}
                    onClick={() => setResets((current) => new Set(current).add(item.key))}
                  >
                    Use the default
                  </button>
                )}
              </div>
            ))}
        </fieldset>
      ))}
      {canModify ? (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      ) : (
        <p className="muted">Your role may view these settings but not change them.</p>
      )}
    </form>
  )
}
