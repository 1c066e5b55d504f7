import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { createApiToken, getAccessTokens, revokeAccessToken } from '../../api/generated/global/sdk.gen'
import { useConsole } from '../../app/session-context'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { SecretOnce } from '../../components/SecretOnce'
import { mergedProblems } from '../../lib/form-errors'
import { dateTime } from '../../lib/format'
import { rightsWords } from './permission-masks'
import { RightsPerModule } from './RightsPerModule'

const KEYS_QUERY = ['global', 'api-keys'] as const

/**
 * The organisation's API keys, on the Global API (the person's bearer token, no business header):
 * create one with scopes (its value shown once), revoke one.
 */
export function ApiKeys() {
  const { session } = useConsole()
  const { me } = useWorkspace()
  const queryClient = useQueryClient()
  const auth = async () => ({ authorization: `Bearer ${await session.token()}` })
  const keys = useQuery({
    queryKey: KEYS_QUERY,
    queryFn: async ({ signal }) =>
      (
        await getAccessTokens({
          headers: await auth(),
          query: { Page: 1, PageSize: 100 },
          signal,
          throwOnError: true,
        })
      ).data,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEYS_QUERY })
  const revoke = useMutation({
    mutationFn: async (id: string) =>
      (await revokeAccessToken({ headers: await auth(), path: { id }, throwOnError: true })).data,
    onSuccess: refresh,
  })
  const [revoking, setRevoking] = useState<string | null>(null)
  const [creating, setCreating] = useState(false)
  const [shown, setShown] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const businessName = (id: string) => me.businesses.find((b) => b.id === id)?.displayName ?? id

  return (
    <section className="card" aria-labelledby="team-keys">
      <h2 id="team-keys">API keys</h2>
      <p className="muted">
        A key acts for the organisation in one business, with no person behind it, within its scopes and never
        beyond the rights of the owner who made it. Send it in the <code>x-dispatch-api-key</code> header.
      </p>
      {shown && (
        <SecretOnce title="API key created" label="API key" secret={shown} onDone={() => setShown(null)} />
      )}
      {note && (
        <div className="notice ok" role="status">
          {note}
        </div>
      )}
      {revoke.error ? <ErrorNotice error={revoke.error} what="Revoking the key" /> : null}
      <Loaded query={keys} what="Loading the API keys">
        {(loaded) => (
          <DataTable
            caption="API keys"
            rows={loaded.data}
            rowKey={(row) => row.id}
            empty="No API key."
            columns={[
              { key: 'label', header: 'Label', render: (row) => row.title ?? '—' },
              {
                key: 'prefix',
                header: 'Starts with',
                render: (row) => <span className="mono">{row.keyPrefix}…</span>,
              },
              { key: 'business', header: 'Business', render: (row) => businessName(row.businessId) },
              {
                key: 'scopes',
                header: 'Scopes',
                render: (row) => (row.scopesByModule ? rightsWords(row.scopesByModule) : 'Unrestricted'),
              },
              { key: 'created', header: 'Created', nowrap: true, render: (row) => dateTime(row.dateCreated) },
              {
                key: 'used',
                header: 'Last used',
                nowrap: true,
                render: (row) => (row.lastUsedAt ? dateTime(row.lastUsedAt) : 'Never'),
              },
              {
                key: 'expires',
                header: 'Expires',
                nowrap: true,
                render: (row) => (row.expiryDate ? dateTime(row.expiryDate) : 'Never'),
              },
              {
                key: 'revoke',
                header: 'Revoke',
                render: (row) =>
                  !me.isOwner ? (
                    ''
                  ) : revoking === row.id ? (
                    <span className="actions">
                      <button
                        type="button"
                        className="danger"
                        disabled={revoke.isPending}
                        onClick={() =>
                          revoke.mutate(row.id, {
                            onSuccess: () => {
                              setRevoking(null)
                              setNote(
                                `Revoked the key ${row.title ?? row.keyPrefix}: it stops working at once.`,
                              )
                            },
                          })
                        }
                      >
                        Yes, revoke {row.title ?? row.keyPrefix}
                      </button>
                      <button type="button" className="secondary" onClick={() => setRevoking(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Revoke the key ${row.title ?? row.keyPrefix}`}
                      onClick={() => setRevoking(row.id)}
                    >
                      Revoke…
                    </button>
                  ),
              },
            ]}
          />
        )}
      </Loaded>
      {!me.isOwner ? (
        <p className="muted">Only an owner of the organisation creates and revokes API keys.</p>
      ) : creating ? (
        <KeyForm
          onCancel={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false)
            setNote(null)
            setShown(token)
            void refresh()
          }}
        />
      ) : (
        <div className="actions">
          <button type="button" onClick={() => setCreating(true)}>
            New API key
          </button>
        </div>
      )}
    </section>
  )
}

function KeyForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (token: string) => void }) {
  const { session } = useConsole()
  const { me, business } = useWorkspace()
  // The modules a key may be scoped to: the caller's own, which every module lists.
  const modules = Object.keys(me.permissions)
  const [label, setLabel] = useState('')
  const [businessId, setBusinessId] = useState(business.id)
  const [ttl, setTtl] = useState('')
  const [restricted, setRestricted] = useState(true)
  const [masks, setMasks] = useState<Record<string, number>>(() =>
    Object.fromEntries(modules.map((m) => [m, 0])),
  )
  const [local, setLocal] = useState<Record<string, string>>({})
  const create = useMutation({
    mutationFn: async (body: Parameters<typeof createApiToken>[0]['body']) =>
      (
        await createApiToken({
          headers: { authorization: `Bearer ${await session.token()}` },
          body,
          throwOnError: true,
        })
      ).data,
  })
  const problems = mergedProblems(local, create.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    if (!label.trim()) found.label = 'Give the key a label, to recognise it later.'
    const minutes = ttl.trim() ? Number(ttl) : null
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1))
      found.ttlMinutes = 'Whole minutes, 1 or more; leave empty for a key that does not expire.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    const scopes = restricted
      ? JSON.stringify(Object.fromEntries(Object.entries(masks).filter(([, mask]) => mask > 0)))
      : null
    create.mutate(
      { label: label.trim(), businessId, ttlMinutes: minutes, scopes },
      {
        onSuccess: (answer) => {
          const token = answer.data.token ?? ''
          // The value goes to the one-time panel; the mutation forgets it.
          create.reset()
          onCreated(token)
        },
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label="New API key">
      <h3>New API key</h3>
      {create.error ? <ErrorNotice error={create.error} what="Creating the key" /> : null}
      <div className="form-row">
        <Field label="Key label" problem={problems.label}>
          {(control) => <input {...control} value={label} onChange={(e) => setLabel(e.target.value)} />}
        </Field>
        <Field label="Acts for the business" problem={problems.businessId}>
          {(control) => (
            <select {...control} value={businessId} onChange={(e) => setBusinessId(e.target.value)}>
              {me.businesses.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.displayName}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Life in minutes" hint="Empty: never expires" problem={problems.ttlMinutes}>
          {(control) => (
            <input {...control} inputMode="numeric" value={ttl} onChange={(e) => setTtl(e.target.value)} />
          )}
        </Field>
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={!restricted} onChange={(e) => setRestricted(!e.target.checked)} />
          Unrestricted (everything its creator may do)
        </label>
      </div>
      {restricted && (
        <RightsPerModule
          legend="Scopes per module"
          field="scopes"
          modules={modules}
          masks={masks}
          onChange={(module, mask) => setMasks((current) => ({ ...current, [module]: mask }))}
          problems={problems}
        />
      )}
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
