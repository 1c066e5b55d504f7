import type { FastifyReply } from 'fastify'
import type { Database } from '../../db/database.js'
import type { BusinessAuth } from '../../security/auth-context.js'
import type { NotificationHub } from './notification-hub.js'
import { toNotification } from './notifications.mapper.js'
import { latestSeq, notificationsAfter } from './notifications.repository.js'

const HEARTBEAT_MS = 15_000
const BATCH = 100

/**
 * The caller's new notifications as server-sent events (`id` = a per-organisation sequence,
 * `event: notification`, `data` = NotificationResponse), from `resume` (the client's Last-Event-ID
 * after a reconnect) or, without it, from now. The reply is taken over and stays open until the
 * client goes; the hub wakes it when its business may have new notifications.
 */
export async function streamNotifications(
  database: Database,
  hub: NotificationHub,
  auth: BusinessAuth,
  resume: number | undefined,
  reply: FastifyReply,
) {
  let last = resume ?? (await latestSeq(database.db, auth))
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  })
  raw.write('retry: 3000\n\n')
  let closed = false
  let running = false
  let again = false
  // Reads everything after `last` in order; one read at a time, re-run if woken meanwhile.
  const drain = async () => {
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        const rows = await notificationsAfter(database.db, auth, last, BATCH)
        for (const row of rows) {
          if (closed) return
          raw.write(`id: ${row.seq}\nevent: notification\ndata: ${JSON.stringify(toNotification(row))}\n\n`)
          last = Number(row.seq)
        }
        if (rows.length === BATCH) again = true
      } while (again && !closed)
    } catch {
      // A failed read is retried on the next wake; the client keeps its place.
    } finally {
      running = false
    }
  }
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS)
  const subscriber = {
    businessId: auth.businessId,
    wake: () => void drain(),
    // The client reconnects (after `retry`) to a server that is up, with Last-Event-ID.
    end: () => {
      if (closed) return
      closed = true
      clearInterval(heartbeat)
      raw.end('event: shutdown\ndata: {"reason":"The server is shutting down; reconnect."}\n\n')
    },
  }
  reply.request.raw.on('close', () => {
    closed = true
    clearInterval(heartbeat)
    hub.unsubscribe(subscriber)
  })
  hub.subscribe(subscriber)
  await drain()
}
