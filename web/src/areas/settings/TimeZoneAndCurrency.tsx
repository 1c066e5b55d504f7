import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import {
  getBusinessOptions,
  getMetadataForBusinessOptions,
  updateBusinessMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { BusinessResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { mergedProblems } from '../../lib/form-errors'

/** The business's time zone (its days, delivery windows and plans) and its currency (prices and costs). */
export function TimeZoneAndCurrency() {
  const business = useQuery(getBusinessOptions())
  const reference = useQuery(getMetadataForBusinessOptions())
  const both = {
    data:
      business.data && reference.data
        ? { business: business.data.data, reference: reference.data.data }
        : undefined,
    error: business.error ?? reference.error,
    refetch: () => Promise.all([business.refetch(), reference.refetch()]),
  }
  return (
    <section className="card" aria-labelledby="tz-currency">
      <h2 id="tz-currency">Time zone and currency</h2>
      <Loaded query={both} what="Loading the business">
        {({ business: current, reference: lists }) => (
          <ZoneAndCurrencyForm
            key={current.id}
            business={current}
            timezones={lists.timezones}
            currencies={lists.currencies}
          />
        )}
      </Loaded>
    </section>
  )
}

function ZoneAndCurrencyForm({
  business,
  timezones,
  currencies,
}: {
  business: BusinessResponse
  timezones: readonly { id: string; utcOffset: string }[]
  currencies: readonly { code: string; name: string }[]
}) {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const zonesList = useId()
  const canModify = can('Settings', 'Modify')
  const [timezone, setTimezone] = useState(business.timezone)
  const [currency, setCurrency] = useState(business.currency)
  const [local, setLocal] = useState<Record<string, string>>({})
  const [saved, setSaved] = useState<string | null>(null)
  const save = useMutation({
    ...updateBusinessMutation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getBusiness' }] }),
  })
  const problems = mergedProblems(local, save.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSaved(null)
    const found: Record<string, string> = {}
    if (!timezone.trim()) found.timezone = 'Choose a time zone, such as Africa/Johannesburg.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    if (timezone.trim() === business.timezone && currency === business.currency) {
      setSaved('Nothing changed.')
      return
    }
    // A PUT replaces the business: everything else is sent back as it is.
    const { id, currency: _c, timezone: _t, dateCreated: _dc, dateModified: _dm, ...rest } = business
    save.mutate(
      { path: { businessId: id }, body: { ...rest, timezone: timezone.trim(), currency } },
      {
        onSuccess: ({ data }) => setSaved(`Saved: ${data.timezone}, amounts in ${data.currency}.`),
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Time zone and currency">
      {save.error ? <ErrorNotice error={save.error} what="Saving the time zone and currency" /> : null}
      {saved && (
        <div className="notice ok" role="status">
          {saved}
        </div>
      )}
      <div className="form-row">
        <Field
          label="Time zone"
          hint="Where the business’s days begin and end: delivery days, windows and plans"
          problem={problems.timezone}
        >
          {(control) => (
            <input
              {...control}
              list={zonesList}
              value={timezone}
              disabled={!canModify}
              autoComplete="off"
              onChange={(e) => setTimezone(e.target.value)}
            />
          )}
        </Field>
        <datalist id={zonesList}>
          {timezones.map((zone) => (
            <option key={zone.id} value={zone.id}>
              UTC{zone.utcOffset}
            </option>
          ))}
        </datalist>
        <Field label="Currency" hint="Prices, costs and amounts" problem={problems.currency}>
          {(control) => (
            <select
              {...control}
              value={currency}
              disabled={!canModify}
              onChange={(e) => setCurrency(e.target.value)}
            >
              {currencies.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code}: {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {canModify && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save time zone and currency'}
          </button>
        </div>
      )}
    </form>
  )
}
