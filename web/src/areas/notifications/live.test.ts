import { describe, expect, it } from 'vitest'
import { client } from '../../api/generated/core/client.gen'
import { followNotifications, type Notification, reconnectDelay } from './live'

const notification = (id: string): Notification => ({
  id,
  title: `Note ${id}`,
  message: 'Something happened',
  readNotification: false,
  priority: 'Medium',
  type: 'Business',
  level: 'Info',
  actionLink: null,
  entityType: 'None',
  entityId: null,
  dateCreated: '2026-11-25T08:00:00Z',
  dateModified: '2026-11-25T08:00:00Z',
  user: { id: 'u', firstName: 'A', lastName: 'B', email: 'a@example.com' },
})

/** A server-sent event stream that sends `text` and then stays open or ends. */
function stream(text: string, stayOpen: boolean, signal: AbortSignal | null): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text))
      if (!stayOpen) controller.close()
      signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')))
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

describe('live notifications', () => {
  it('back off 1, 2, 4... seconds, at most 30', () => {
    expect([1, 2, 3, 6, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 30_000, 30_000])
  })

  it('reconnect when the stream ends and resume after the last event (Last-Event-ID)', async () => {
    const resumedFrom: (string | null)[] = []
    const stop = new AbortController()
    client.setConfig({
      baseUrl: 'http://core.test',
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init)
        expect(new URL(request.url).pathname).toBe('/api/notifications/stream')
        resumedFrom.push(request.headers.get('last-event-id'))
        const event = (id: string) =>
          `id: ${id}\nevent: notification\ndata: ${JSON.stringify(notification(id))}\n\n`
        return resumedFrom.length === 1
          ? stream(`retry: 3000\n\n${event('5')}`, false, null)
          : stream(`retry: 3000\n\n${event('6')}`, true, request.signal)
      },
    })
    const received: string[] = []
    const states: boolean[] = []
    const done = followNotifications(
      stop.signal,
      (n) => {
        received.push(n.id)
        if (received.length === 2) stop.abort()
      },
      (connected) => states.push(connected),
    )
    await done
    expect(received).toEqual(['5', '6'])
    expect(resumedFrom).toEqual([null, '5'])
    // Up, down when the first stream ended, up again.
    expect(states[0]).toBe(true)
    expect(states.indexOf(false)).toBeGreaterThan(0)
    expect(states.lastIndexOf(true)).toBeGreaterThan(states.indexOf(false))
  }, 10_000)
})
