import { streamUserNotifications } from '../../api/generated/core/sdk.gen'
import type { GetUserNotificationsResponses } from '../../api/generated/core/types.gen'

export type Notification = GetUserNotificationsResponses[200]['data'][number]

export function isNotification(value: unknown): value is Notification {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return (
    typeof record.id === 'string' && typeof record.title === 'string' && typeof record.message === 'string'
  )
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

/** After this many failures in a row, wait this long before the next attempt (ms), at most 30 s. */
export function reconnectDelay(failures: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, failures - 1))
}

/**
 * Follows GET /api/notifications/stream (server-sent events, through the generated client, so it
 * carries the session's token) until `signal` aborts: reconnects when the stream ends or fails,
 * backing off, and resumes after the last event seen (Last-Event-ID), so nothing is missed.
 */
export async function followNotifications(
  signal: AbortSignal,
  onNotification: (notification: Notification) => void,
  onConnected: (connected: boolean) => void = () => {},
): Promise<void> {
  let lastEventId: string | undefined
  let failures = 0
  while (!signal.aborted) {
    let forbidden = false
    const { stream } = await streamUserNotifications({
      signal,
      headers: lastEventId ? { 'Last-Event-ID': lastEventId } : undefined,
      // One attempt per round: this loop does the backing off, and resets it after a good stream.
      sseMaxRetryAttempts: 1,
      // The server opens every stream with a `retry:` line: the first event says the stream is up.
      onSseEvent: (event) => {
        onConnected(true)
        if (event.id) lastEventId = event.id
      },
      onSseError: (error) => {
        if (error instanceof Error && /SSE failed: 40[13]/.test(error.message)) forbidden = true
      },
    })
    try {
      for await (const data of stream as AsyncGenerator<unknown>) {
        failures = 0
        if (isNotification(data)) onNotification(data)
      }
    } catch {
      // The stream broke: the loop reconnects.
    }
    onConnected(false)
    if (signal.aborted || forbidden) return
    failures++
    await sleep(reconnectDelay(failures), signal)
  }
}
