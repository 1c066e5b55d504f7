import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'wouter'
import {
  addActivityTraceMutation,
  addCustomerFileAttachmentMutation,
  createCustomerContactMutation,
  deleteCustomerContactMutation,
  getActivityTracesOptions,
  getCustomerOptions,
  getKpiMetricsOptions,
  getOrdersOptions,
  removeCustomerFileAttachmentMutation,
  uploadFileMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { downloadFile } from '../../api/generated/core/sdk.gen'
import type { GetCustomerResponses } from '../../api/generated/core/types.gen'
import { useWorkspace } from '../../app/workspace-context'
import { DataTable } from '../../components/DataTable'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Field } from '../../components/Field'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { Status } from '../../components/Status'
import { dateTime, day, integer, money, words } from '../../lib/format'

/** Everything about one customer: who to call, what was agreed, what they bought. */
export default function CustomerDetail() {
  const { id = '' } = useParams<{ id: string }>()
  const path = { customerId: id }
  const customer = useQuery(getCustomerOptions({ path }))
  const kpis = useQuery(getKpiMetricsOptions({ path }))
  // The key figures count confirmed sales only; the customer's drafts are told apart beside them.
  const drafts = useQuery(
    getOrdersOptions({
      query: { Page: 1, PageSize: 1, $filter: `customerId eq '${id}' and status eq 'Draft'` },
    }),
  )
  const draftCount = drafts.data?.totalCount ?? 0
  const c = customer.data?.data

  if (customer.error)
    return (
      <>
        <PageHeader title="Customer" />
        <ErrorNotice
          error={customer.error}
          what="Loading the customer"
          onRetry={() => void customer.refetch()}
        />
        <Link href="/customers">Back to customers</Link>
      </>
    )
  if (!c) return <Loading label="Loading the customer…" />
  const k = kpis.data?.data
  return (
    <>
      <p className="breadcrumb">
        <Link href="/customers">Customers</Link> / {c.code}
      </p>
      <PageHeader title={c.name}>
        <Status value={c.status} />
      </PageHeader>
      <div className="grid">
        <section className="card" aria-labelledby="c-details">
          <h2 id="c-details">Details</h2>
          <dl className="facts">
            <dt>Code</dt>
            <dd>{c.code}</dd>
            <dt>Kind</dt>
            <dd>{c.type}</dd>
            <dt>Email</dt>
            <dd>{c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : '—'}</dd>
            <dt>Phone</dt>
            <dd>{c.phoneNumber ?? '—'}</dd>
            <dt>Billing address</dt>
            <dd>{c.billingAddress?.fullAddress ?? '—'}</dd>
            <dt>Shipping address</dt>
            <dd>{c.shippingAddress?.fullAddress ?? '—'}</dd>
            {Object.entries(c.metadata).map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{String(value)}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card" aria-labelledby="c-kpis">
          <h2 id="c-kpis">Key figures</h2>
          {kpis.error ? (
            <ErrorNotice error={kpis.error} onRetry={() => void kpis.refetch()} />
          ) : !k ? (
            <Loading />
          ) : (
            <dl className="facts">
              <dt>Confirmed orders</dt>
              <dd>
                {integer(k.totalOrders)}
                {draftCount > 0 && (
                  <span data-testid="customer-draft-orders">
                    {' '}
                    and {integer(draftCount)} draft{draftCount === 1 ? '' : 's'}, not counted
                  </span>
                )}
              </dd>
              <dt>Revenue</dt>
              <dd>{money(k.totalRevenue, k.currency)}</dd>
              <dt>Average order</dt>
              <dd>{money(k.averageOrderValue, k.currency)}</dd>
              <dt>Deliveries</dt>
              <dd>{integer(k.totalDeliveries)}</dd>
              <dt>Fulfilment cost</dt>
              <dd>{money(k.fulfillmentCost, k.currency)}</dd>
              <dt>Rank by orders</dt>
              <dd>{k.rankByOrderVolume ? `${k.rankByOrderVolume} of ${k.rankedCustomers}` : 'not ranked'}</dd>
              <dt>Rank by spend</dt>
              <dd>{k.rankBySpend ? `${k.rankBySpend} of ${k.rankedCustomers}` : 'not ranked'}</dd>
              <dt>First and last order</dt>
              <dd>
                {k.firstOrderDate ? `${day(k.firstOrderDate)} – ${day(k.lastOrderDate)}` : 'no orders yet'}
              </dd>
            </dl>
          )}
        </section>
      </div>
      <Contacts customerId={id} contacts={c.contacts} />
      <Attachments customerId={id} attachments={c.attachments} />
      <Activity customerId={id} />
    </>
  )
}

type Customer = GetCustomerResponses[200]['data']

function useRefreshCustomer(customerId: string) {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [{ _id: 'getCustomer', path: { customerId } }] }),
      queryClient.invalidateQueries({ queryKey: [{ _id: 'getActivityTraces', path: { customerId } }] }),
    ])
}

function Contacts({ customerId, contacts }: { customerId: string; contacts: Customer['contacts'] }) {
  const { can } = useWorkspace()
  const refresh = useRefreshCustomer(customerId)
  const create = useMutation({ ...createCustomerContactMutation(), onSuccess: () => refresh() })
  const remove = useMutation({ ...deleteCustomerContactMutation(), onSuccess: () => refresh() })
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', phoneNumber: '', role: '' })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const optional = (value: string) => (value.trim() ? value.trim() : null)
    create.mutate(
      {
        path: { customerId },
        body: {
          firstName: form.firstName.trim(),
          lastName: optional(form.lastName),
          email: optional(form.email),
          phoneNumber: optional(form.phoneNumber),
          role: optional(form.role),
        },
      },
      { onSuccess: () => setForm({ firstName: '', lastName: '', email: '', phoneNumber: '', role: '' }) },
    )
  }
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [key]: event.target.value }))
  return (
    <section className="card" aria-labelledby="c-contacts">
      <h2 id="c-contacts">Contacts</h2>
      <DataTable
        caption="Contacts"
        rows={contacts}
        rowKey={(row) => row.id}
        empty="No contacts yet."
        columns={[
          {
            key: 'name',
            header: 'Name',
            render: (row) => `${row.firstName} ${row.lastName ?? ''}${row.isPrimary ? ' (primary)' : ''}`,
          },
          { key: 'role', header: 'Role', render: (row) => row.role ?? '—' },
          { key: 'email', header: 'Email', render: (row) => row.email ?? '—' },
          { key: 'phone', header: 'Phone', render: (row) => row.phoneNumber ?? '—' },
          ...(can('Customers', 'Delete')
            ? [
                {
                  key: 'remove',
                  header: 'Remove',
                  render: (row: Customer['contacts'][number]) => (
                    <button
                      type="button"
                      className="secondary"
                      disabled={remove.isPending}
                      aria-label={`Remove contact ${row.firstName} ${row.lastName ?? ''}`}
                      onClick={() => remove.mutate({ path: { customerId, contactId: row.id } })}
                    >
                      Remove
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {remove.error ? <ErrorNotice error={remove.error} what="Removing the contact" /> : null}
      {can('Customers', 'Modify') && (
        <form onSubmit={submit} aria-labelledby="c-add-contact">
          <h3 id="c-add-contact">Add a contact</h3>
          {create.error ? <ErrorNotice error={create.error} what="Adding the contact" /> : null}
          <div className="form-row">
            <Field label="First name">
              {(control) => (
                <input {...control} required value={form.firstName} onChange={set('firstName')} />
              )}
            </Field>
            <Field label="Last name">
              {(control) => <input {...control} value={form.lastName} onChange={set('lastName')} />}
            </Field>
            <Field label="Contact email">
              {(control) => <input {...control} type="email" value={form.email} onChange={set('email')} />}
            </Field>
            <Field label="Phone">
              {(control) => (
                <input {...control} type="tel" value={form.phoneNumber} onChange={set('phoneNumber')} />
              )}
            </Field>
            <Field label="Role" hint="e.g. Buyer, Accounts">
              {(control) => <input {...control} value={form.role} onChange={set('role')} />}
            </Field>
          </div>
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add contact'}
          </button>
        </form>
      )}
    </section>
  )
}

async function download(fileId: string, name: string) {
  const { data } = await downloadFile({ path: { fileId }, parseAs: 'blob', throwOnError: true })
  const url = URL.createObjectURL(data as Blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

function Attachments({
  customerId,
  attachments,
}: {
  customerId: string
  attachments: Customer['attachments']
}) {
  const { can } = useWorkspace()
  const refresh = useRefreshCustomer(customerId)
  const upload = useMutation(uploadFileMutation())
  const attach = useMutation({ ...addCustomerFileAttachmentMutation(), onSuccess: () => refresh() })
  const remove = useMutation({ ...removeCustomerFileAttachmentMutation(), onSuccess: () => refresh() })
  const [file, setFile] = useState<File | null>(null)
  const [link, setLink] = useState({ title: '', url: '' })
  const [downloadError, setDownloadError] = useState<unknown>(null)
  const error = upload.error ?? attach.error ?? remove.error ?? downloadError

  const sendFile = async (event: FormEvent) => {
    event.preventDefault()
    if (!file) return
    const uploaded = await upload.mutateAsync({ body: { file } }).catch(() => null)
    if (!uploaded) return
    attach.mutate({ path: { customerId }, body: { type: 'File', fileAttachmentId: uploaded.data.id } })
    setFile(null)
    ;(event.target as HTMLFormElement).reset()
  }
  const sendLink = (event: FormEvent) => {
    event.preventDefault()
    attach.mutate(
      { path: { customerId }, body: { type: 'Link', title: link.title.trim(), url: link.url.trim() } },
      { onSuccess: () => setLink({ title: '', url: '' }) },
    )
  }
  return (
    <section className="card" aria-labelledby="c-attachments">
      <h2 id="c-attachments">Attachments</h2>
      <DataTable
        caption="Attachments"
        rows={attachments}
        rowKey={(row) => row.id}
        empty="No attachments yet."
        columns={[
          {
            key: 'what',
            header: 'Attachment',
            render: (row) =>
              row.type === 'Link' && row.url ? (
                <a href={row.url} target="_blank" rel="noopener noreferrer">
                  {row.title ?? row.url}
                </a>
              ) : row.fileId ? (
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    setDownloadError(null)
                    download(row.fileId as string, row.fileName ?? 'attachment').catch(setDownloadError)
                  }}
                >
                  {row.title ?? row.fileName}
                </button>
              ) : (
                (row.title ?? '—')
              ),
          },
          { key: 'kind', header: 'Kind', render: (row) => (row.type === 'File' ? row.contentType : 'Link') },
          {
            key: 'size',
            header: 'Size',
            number: true,
            render: (row) =>
              row.sizeBytes !== null ? `${integer(Math.ceil(row.sizeBytes / 1024))} KB` : '—',
          },
          { key: 'added', header: 'Added', render: (row) => dateTime(row.dateCreated) },
          ...(can('Customers', 'Delete')
            ? [
                {
                  key: 'remove',
                  header: 'Remove',
                  render: (row: Customer['attachments'][number]) => (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove attachment ${row.title ?? row.fileName ?? ''}`}
                      onClick={() => remove.mutate({ path: { customerId, attachmentId: row.id } })}
                    >
                      Remove
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {error ? <ErrorNotice error={error} what="The attachment" /> : null}
      {can('Customers', 'Modify') && (
        <div className="grid">
          <form onSubmit={(event) => void sendFile(event)} aria-labelledby="c-upload">
            <h3 id="c-upload">Attach a file</h3>
            <Field label="File" hint="Stored with the business; its type is read from its content">
              {(control) => (
                <input
                  {...control}
                  type="file"
                  required
                  onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                />
              )}
            </Field>
            <button type="submit" disabled={!file || upload.isPending || attach.isPending}>
              {upload.isPending ? 'Uploading…' : 'Attach file'}
            </button>
          </form>
          <form onSubmit={sendLink} aria-labelledby="c-link">
            <h3 id="c-link">Attach a link</h3>
            <Field label="Title">
              {(control) => (
                <input
                  {...control}
                  required
                  value={link.title}
                  onChange={(event) => setLink({ ...link, title: event.target.value })}
                />
              )}
            </Field>
            <Field label="Address (URL)">
              {(control) => (
                <input
                  {...control}
                  type="url"
                  required
                  placeholder="https://"
                  value={link.url}
                  onChange={(event) => setLink({ ...link, url: event.target.value })}
                />
              )}
            </Field>
            <button type="submit" disabled={attach.isPending}>
              Attach link
            </button>
          </form>
        </div>
      )}
    </section>
  )
}

function Activity({ customerId }: { customerId: string }) {
  const { can } = useWorkspace()
  const [page, setPage] = useState(1)
  const traces = useQuery(
    getActivityTracesOptions({
      path: { customerId },
      query: { Page: page, PageSize: 10, $orderby: 'occurredAt desc' },
    }),
  )
  const refresh = useRefreshCustomer(customerId)
  const add = useMutation({ ...addActivityTraceMutation(), onSuccess: () => refresh() })
  const [entry, setEntry] = useState({ type: 'Call', note: '' })
  return (
    <section className="card" aria-labelledby="c-activity">
      <h2 id="c-activity">Activity</h2>
      {traces.error ? (
        <ErrorNotice error={traces.error} onRetry={() => void traces.refetch()} />
      ) : !traces.data ? (
        <Loading />
      ) : (
        <>
          <DataTable
            caption="Activity"
            rows={traces.data.data}
            rowKey={(row) => row.id}
            empty="No activity recorded."
            columns={[
              { key: 'when', header: 'When', render: (row) => dateTime(row.occurredAt) },
              { key: 'type', header: 'What', render: (row) => words(row.type) },
              { key: 'note', header: 'Note', render: (row) => row.note ?? '' },
              {
                key: 'source',
                header: 'By',
                render: (row) => (row.source === 'System' ? 'Cartage' : 'A person'),
              },
            ]}
          />
          <Pager
            label="Activity"
            page={traces.data.page}
            finalPage={traces.data.finalPage}
            totalCount={traces.data.totalCount}
            pageSize={10}
            onPage={setPage}
          />
        </>
      )}
      {can('Customers', 'Modify') && (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            add.mutate(
              { path: { customerId }, body: { type: entry.type, note: entry.note.trim() || null } },
              { onSuccess: () => setEntry({ type: entry.type, note: '' }) },
            )
          }}
          aria-labelledby="c-add-activity"
        >
          <h3 id="c-add-activity">Record activity</h3>
          {add.error ? <ErrorNotice error={add.error} what="Recording the activity" /> : null}
          <div className="form-row">
            <Field label="Kind of activity">
              {(control) => (
                <select
                  {...control}
                  value={entry.type}
                  onChange={(event) => setEntry({ ...entry, type: event.target.value })}
                >
                  {['Call', 'Email', 'Visit', 'Meeting', 'Complaint', 'Note'].map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Note">
              {(control) => (
                <input
                  {...control}
                  value={entry.note}
                  onChange={(event) => setEntry({ ...entry, note: event.target.value })}
                />
              )}
            </Field>
          </div>
          <button type="submit" disabled={add.isPending}>
            Record
          </button>
        </form>
      )}
    </section>
  )
}
