import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  createWebhookEndpointMutation,
  deleteWebhookEndpointMutation,
  getWebhookDeliveriesOptions,
  getWebhookEndpointsOptions,
  getWebhookEventTypesOptions,
  replayWebhookEventMutation,
  rotateWebhookSecretMutation,
  testWebhookEndpointMutation,
  updateWebhookEndpointMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import type { WebhookAttemptResponse, WebhookEndpointResponse } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loaded } from '../../components/Loaded'
import { PageHeader } from '../../components/PageHeader'
import { SecretOnce } from '../../components/SecretOnce'
import { mergedProblems } from '../../lib/form-errors'
import { dateTime, integer } from '../../lib/format'
import { setHashQuery, useHashQuery } from '../../lib/hash-location'

const OUTCOME_TONE: Record<WebhookAttemptResponse['outcome'], string> = {
  Succeeded: 'good',
  Failed: 'bad',
  Refused: 'bad',
}

const refreshKeys = ['getWebhookEndpoints', 'getWebhookDeliveries']

/** The business's webhook endpoints: add, enable or disable, rotate the secret, test, the delivery log. */
export default function Webhooks() {
  const { can } = useWorkspace()
  const queryClient = useQueryClient()
  const params = useHashQuery()
  const selectedId = params.get('endpoint')
  const [adding, setAdding] = useState(false)
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const endpoints = useQuery(
    getWebhookEndpointsOptions({ query: { Page: 1, PageSize: 100, $orderby: 'dateCreated desc' } }),
  )
  const refresh = () =>
    Promise.all(refreshKeys.map((_id) => queryClient.invalidateQueries({ queryKey: [{ _id }] })))
  const canModify = can('Integrations', 'Modify')
  const select = (id: string | null) => {
    const next = new URLSearchParams(params)
    if (id) next.set('endpoint', id)
    else next.delete('endpoint')
    setHashQuery(next)
  }
  const list = endpoints.data?.data ?? []
  const selected = list.find((e) => e.id === selectedId) ?? null

  return (
    <>
      <PageHeader title="Webhooks">
        {canModify && !adding && (
          <button
            type="button"
            onClick={() => {
              setAdding(true)
              setNote(null)
            }}
          >
            Add an endpoint
          </button>
        )}
      </PageHeader>
      <p className="muted">
        Cartage sends the business’s events to these HTTPS addresses as they happen, signed with each
        endpoint’s secret (Standard Webhooks), and retries a failed delivery for about two days.
      </p>
      {note && (
        <div className="notice ok" role="status">
          {note}
        </div>
      )}
      {secret && (
        <SecretOnce
          title={secret.title}
          label="Signing secret"
          secret={secret.value}
          onDone={() => setSecret(null)}
        />
      )}
      {adding && (
        <EndpointForm
          onCancel={() => setAdding(false)}
          onCreated={(created) => {
            setAdding(false)
            setSecret({ title: `Endpoint added: its signing secret`, value: created.secret })
            void refresh()
            select(created.id)
          }}
        />
      )}
      <Loaded query={endpoints} what="Loading the endpoints">
        {(_loaded) => (
          <DataTable
            caption="Webhook endpoints"
            rows={list}
            rowKey={(row) => row.id}
            empty="No endpoint yet: add one to receive the business’s events."
            rowClass={(row) => (row.id === selectedId ? 'selected' : undefined)}
            columns={[
              {
                key: 'url',
                header: 'Address',
                render: (row) => (
                  <button
                    type="button"
                    className="link"
                    aria-pressed={row.id === selectedId}
                    onClick={() => select(row.id === selectedId ? null : row.id)}
                  >
                    {row.url}
                  </button>
                ),
              },
              { key: 'description', header: 'Description', render: (row) => row.description ?? '—' },
              { key: 'events', header: 'Events', render: (row) => row.eventTypes.join(', ') },
              {
                key: 'state',
                header: 'State',
                render: (row) => (
                  <span className={`badge ${row.enabled ? 'good' : 'bad'}`}>
                    {row.enabled ? 'Enabled' : 'Disabled'}
                  </span>
                ),
              },
              {
                key: 'failures',
                header: 'Failures in a row',
                number: true,
                render: (row) => integer(row.consecutiveFailures),
              },
            ]}
          />
        )}
      </Loaded>
      {selected && (
        <EndpointDetail
          key={selected.id}
          endpoint={selected}
          onSecret={(value) => setSecret({ title: `New signing secret for ${selected.url}`, value })}
          onDeleted={() => {
            setNote(`Deleted the endpoint ${selected.url}.`)
            select(null)
            void refresh()
          }}
          onChanged={() => void refresh()}
        />
      )}
    </>
  )
}

/** A new endpoint: its address, description, the events it receives, and whether it is on. */
function EndpointForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void
  onCreated: (created: WebhookEndpointResponse & { secret: string }) => void
}) {
  const types = useQuery(getWebhookEventTypesOptions())
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<string[]>([])
  const [enabled, setEnabled] = useState(true)
  const [local, setLocal] = useState<Record<string, string>>({})
  const create = useMutation(createWebhookEndpointMutation())
  const problems = mergedProblems(local, create.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string> = {}
    const address = url.trim()
    if (!address) found.url = 'Enter the address that receives the events.'
    else if (!/^https?:\/\/\S+$/i.test(address)) found.url = 'An address starting with https://'
    if (events.length === 0) found.eventTypes = 'Choose at least one event type.'
    setLocal(found)
    if (Object.keys(found).length > 0) return
    create.mutate(
      { body: { url: address, description: description.trim() || null, eventTypes: events, enabled } },
      {
        onSuccess: (answer) => {
          const created = answer.data
          // The secret goes to the one-time panel; the mutation forgets it.
          create.reset()
          onCreated(created)
        },
      },
    )
  }
  const toggle = (type: string, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)))

  return (
    <form className="card" onSubmit={submit} noValidate aria-label="New webhook endpoint">
      <h2>New endpoint</h2>
      {create.error ? <ErrorNotice error={create.error} what="Adding the endpoint" /> : null}
      <div className="form-row">
        <Field label="Address (URL)" hint="https://, reachable from the internet" problem={problems.url}>
          {(control) => (
            <input
              {...control}
              type="url"
              value={url}
              placeholder="https://hooks.example.com/cartage"
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <Field label="Description" problem={problems.description}>
          {(control) => (
            <input {...control} value={description} onChange={(e) => setDescription(e.target.value)} />
          )}
        </Field>
      </div>
      <fieldset
        className="field"
        aria-describedby={problems.eventTypes ? 'webhook-events-problem' : undefined}
      >
        <legend>Event types</legend>
        <Loaded query={types} what="Loading the event types">
          {(loaded) => (
            <ul className="checks">
              {loaded.data.map((type) => (
                <li key={type.type}>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={events.includes(type.type)}
                      onChange={(e) => toggle(type.type, e.target.checked)}
                    />
                    <span className="mono">{type.type}</span>{' '}
                    <span className="muted">{type.description}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
        {problems.eventTypes && (
          <span className="problem" id="webhook-events-problem">
            {problems.eventTypes}
          </span>
        )}
      </fieldset>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled (send events now)
        </label>
      </div>
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add endpoint'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

/** One endpoint: switch it on or off, rotate its secret, send a test, delete it, and its delivery log. */
function EndpointDetail({
  endpoint,
  onSecret,
  onDeleted,
  onChanged,
}: {
  endpoint: WebhookEndpointResponse
  onSecret: (secret: string) => void
  onDeleted: () => void
  onChanged: () => void
}) {
  const { can } = useWorkspace()
  const canModify = can('Integrations', 'Modify')
  const canDelete = can('Integrations', 'Delete')
  const [confirming, setConfirming] = useState(false)
  const [note, setNote] = useState<string | null>(null)
  const path = { endpointId: endpoint.id }
  const deliveries = useQuery({
    ...getWebhookDeliveriesOptions({
      path,
      query: { Page: 1, PageSize: 50, $orderby: 'dateCreated desc' },
    }),
    // Deliveries happen in the background: the log follows them while it is open.
    refetchInterval: 15_000,
  })
  const update = useMutation(updateWebhookEndpointMutation())
  const rotate = useMutation(rotateWebhookSecretMutation())
  const test = useMutation(testWebhookEndpointMutation())
  const remove = useMutation(deleteWebhookEndpointMutation())
  const replay = useMutation(replayWebhookEventMutation())
  const error = update.error ?? rotate.error ?? test.error ?? remove.error ?? replay.error
  const afterChange = (message: string) => {
    setNote(message)
    onChanged()
  }

  const setEnabled = (enabled: boolean) =>
    update.mutate(
      {
        path,
        body: {
          url: endpoint.url,
          description: endpoint.description,
          eventTypes: endpoint.eventTypes,
          enabled,
        },
      },
      { onSuccess: () => afterChange(enabled ? 'Endpoint enabled.' : 'Endpoint disabled.') },
    )

  return (
    <section className="card" aria-labelledby="endpoint-title">
      <h2 id="endpoint-title">Endpoint {endpoint.url}</h2>
      {endpoint.disabledReason && (
        <div className="notice warn">
          <p className="title">Disabled by delivery</p>
          <p>{endpoint.disabledReason}</p>
          <p>Enable it once the receiver works again, then replay what it missed.</p>
        </div>
      )}
      {endpoint.previousSecretExpiresAt && (
        <p className="muted">
          The previous secret also signs until {dateTime(endpoint.previousSecretExpiresAt)}.
        </p>
      )}
      {note && (
        <div className="notice ok" role="status">
          {note}
        </div>
      )}
      {error ? <ErrorNotice error={error} what="Changing the endpoint" /> : null}
      {test.data && (
        <div className={`notice ${test.data.data.outcome === 'Succeeded' ? 'ok' : 'error'}`} role="status">
          <p className="title">Test event: {test.data.data.outcome.toLowerCase()}</p>
          <p>
            {test.data.data.responseStatus !== null
              ? `The receiver answered ${test.data.data.responseStatus} in ${integer(test.data.data.latencyMs)} ms.`
              : (test.data.data.error ?? 'No answer.')}
          </p>
        </div>
      )}
      <div className="actions">
        {canModify && (
          <>
            <button type="button" disabled={update.isPending} onClick={() => setEnabled(!endpoint.enabled)}>
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={test.isPending}
              onClick={() =>
                test.mutate(
                  { path },
                  {
                    onSuccess: () => {
                      setNote(null)
                      onChanged()
                    },
                  },
                )
              }
            >
              {test.isPending ? 'Sending…' : 'Send a test event'}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={rotate.isPending}
              onClick={() =>
                rotate.mutate(
                  { path },
                  {
                    onSuccess: (answer) => {
                      const value = answer.data.secret
                      rotate.reset()
                      onSecret(value)
                      afterChange('Secret rotated: the previous one keeps signing for a day.')
                    },
                  },
                )
              }
            >
              Rotate the secret
            </button>
          </>
        )}
        {canDelete &&
          (confirming ? (
            <>
              <button
                type="button"
                className="danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate({ path }, { onSuccess: onDeleted })}
              >
                Yes, delete it
              </button>
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="secondary" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          ))}
      </div>
      <div className="page-header">
        <h3>Delivery log</h3>
        <button
          type="button"
          className="secondary"
          disabled={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          Refresh the log
        </button>
      </div>
      <Loaded query={deliveries} what="Loading the delivery log">
        {(loaded) => (
          <DataTable
            caption="Delivery log"
            rows={loaded.data}
            rowKey={(row) => row.id}
            empty="Nothing sent to this endpoint yet."
            columns={[
              { key: 'when', header: 'When', nowrap: true, render: (row) => dateTime(row.dateCreated) },
              {
                key: 'type',
                header: 'Event',
                render: (row) => <span className="mono">{row.eventType}</span>,
              },
              {
                key: 'outcome',
                header: 'Status',
                render: (row) => <span className={`badge ${OUTCOME_TONE[row.outcome]}`}>{row.outcome}</span>,
              },
              { key: 'attempt', header: 'Attempt', number: true, render: (row) => integer(row.attempt) },
              {
                key: 'response',
                header: 'Response code',
                number: true,
                render: (row) => (row.responseStatus === null ? '—' : String(row.responseStatus)),
              },
              { key: 'error', header: 'Error', render: (row) => row.error ?? '' },
              {
                key: 'replay',
                header: 'Replay',
                render: (row) =>
                  row.eventId && row.deliveryId && canModify ? (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Replay ${row.eventType} of ${dateTime(row.dateCreated)}`}
                      disabled={replay.isPending}
                      onClick={() =>
                        replay.mutate(
                          { path: { eventId: row.eventId ?? '' } },
                          {
                            onSuccess: (answer) =>
                              afterChange(
                                `Replayed: ${answer.data.queued} ${answer.data.queued === 1 ? 'delivery' : 'deliveries'} queued.`,
                              ),
                          },
                        )
                      }
                    >
                      Replay
                    </button>
                  ) : (
                    ''
                  ),
              },
            ]}
          />
        )}
      </Loaded>
    </section>
  )
}
