import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import {
  getUserNotificationsOptions,
  markAllNotificationsReadMutation,
  patchNotificationMutation,
} from '../../api/generated/core/@tanstack/react-query.gen'
import { patchNotification } from '../../api/generated/core/sdk.gen'
import { BulkBar, type BulkOutcome, runEach, useSelection } from '../../components/Bulk'
import { ErrorNotice } from '../../components/ErrorNotice'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Pager } from '../../components/Pager'
import { consoleRouteFor } from '../../lib/action-links'
import { dateTime, integer } from '../../lib/format'

const LEVEL_TONE: Record<string, string> = {
  Error: 'bad',
  Warning: 'wait',
  Success: 'good',
  Recommendation: 'busy',
  Info: 'busy',
}

/** The person's notifications; new ones arrive live (the console follows the event stream). */
export default function NotificationsPage() {
  const queryClient = useQueryClient()
  const [includeRead, setIncludeRead] = useState(false)
  const [page, setPage] = useState(1)
  const list = useQuery({
    ...getUserNotificationsOptions({ query: { includeRead, Page: page, PageSize: 20 } }),
    placeholderData: keepPreviousData,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: [{ _id: 'getUserNotifications' }] })
  const patch = useMutation({ ...patchNotificationMutation(), onSuccess: refresh })
  const markAll = useMutation({ ...markAllNotificationsReadMutation(), onSuccess: refresh })
  const error = patch.error ?? markAll.error
  const selection = useSelection()
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null)
  const [busy, setBusy] = useState(false)
  const markChosen = async (read: boolean) => {
    setBusy(true)
    setOutcomes(null)
    const done = await runEach(selection.chosen, (id) =>
      patchNotification({ path: { id }, body: { read }, throwOnError: true }),
    )
    setOutcomes(done)
    selection.clear()
    setBusy(false)
    await refresh()
  }
  const pageRows = (list.data?.data ?? []).map((n) => ({ id: n.id, name: n.title }))
  const allChosen = pageRows.length > 0 && pageRows.every((row) => selection.has(row.id))

  return (
    <>
      <PageHeader title="Notifications">
        <button type="button" disabled={markAll.isPending} onClick={() => markAll.mutate({})}>
          Mark all read
        </button>
      </PageHeader>
      <fieldset>
        <legend>Show</legend>
        <label className="check">
          <input
            type="radio"
            name="which"
            checked={!includeRead}
            onChange={() => {
              setIncludeRead(false)
              setPage(1)
            }}
          />
          Unread
        </label>
        <label className="check">
          <input
            type="radio"
            name="which"
            checked={includeRead}
            onChange={() => {
              setIncludeRead(true)
              setPage(1)
            }}
          />
          All
        </label>
      </fieldset>
      {markAll.data && (
        <div className="notice ok" role="status">
          {integer(markAll.data.data)} notification{markAll.data.data === 1 ? '' : 's'} marked read.
        </div>
      )}
      {error ? <ErrorNotice error={error} what="Updating notifications" /> : null}
      <BulkBar selection={selection} noun="notifications" outcomes={outcomes} done="changed">
        <button type="button" disabled={busy} onClick={() => void markChosen(true)}>
          Mark the chosen read
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void markChosen(false)}>
          Mark the chosen unread
        </button>
      </BulkBar>
      {list.error ? (
        <ErrorNotice error={list.error} what="Loading notifications" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Loading label="Loading notifications…" />
      ) : list.data.data.length === 0 ? (
        <p className="muted">
          {includeRead
            ? 'No notifications.'
            : 'Nothing unread. New notifications appear here as they happen.'}
        </p>
      ) : (
        <>
          <label className="check">
            <input type="checkbox" checked={allChosen} onChange={() => selection.toggleAll(pageRows)} />
            Choose all on this page
          </label>
          <ul className="notifications" aria-label="Notifications">
            {list.data.data.map((n) => {
              const route = consoleRouteFor(n)
              return (
                <li key={n.id} className={`card${n.readNotification ? '' : ' unread'}`}>
                  <div className="page-header">
                    <h2>
                      {n.readNotification ? '' : <span className="visually-hidden">Unread: </span>}
                      {n.title}
                    </h2>
                    <span className={`badge ${LEVEL_TONE[n.level] ?? ''}`}>{n.level}</span>
                  </div>
                  <p>{n.message}</p>
                  <p className="muted">{dateTime(n.dateCreated)}</p>
                  <div className="actions">
                    <label className="check">
                      <input
                        type="checkbox"
                        checked={selection.has(n.id)}
                        onChange={() => selection.toggle(n.id, n.title)}
                      />
                      <span className="visually-hidden">Choose “{n.title}”</span>
                      <span aria-hidden="true">Choose</span>
                    </label>
                    {route && <Link href={route}>Open</Link>}
                    <button
                      type="button"
                      className="secondary"
                      disabled={patch.isPending}
                      onClick={() =>
                        patch.mutate({ path: { id: n.id }, body: { read: !n.readNotification } })
                      }
                    >
                      {n.readNotification ? 'Mark unread' : 'Mark read'}
                    </button>
                  </div>
                </li>
              )
            })}
          </ul>
          <Pager
            label="Notifications"
            page={list.data.page}
            finalPage={list.data.finalPage}
            totalCount={list.data.totalCount}
            pageSize={20}
            onPage={setPage}
          />
        </>
      )}
    </>
  )
}
