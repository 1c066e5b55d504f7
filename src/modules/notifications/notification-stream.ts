import { Type } from '@sinclair/typebox'
import { sql } from 'kysely'
import { businessAuthOf } from '../../http/auth-hook.js'
import { errorResponses } from '../../http/error-responses.js'
import type { HttpApp } from '../../http/kernel.js'
import { CORE_SECURITY } from '../../http/security-schemes.js'
import type { AppDeps } from '../../platform/deps.js'
import type { BusinessAuth } from '../../security/auth-context.js'
import { NotificationHub } from './notification-hub.js'
import { scopedNotifications, toNotification } from './notifications.service.js'

const HEARTBEAT_MS = 15_000
const BATCH = 100

/**
 * GET /api/notifications/stream: the caller's new notifications as server-sent events (`id` = a
 * per-organisation sequence, `event: notification`, `data` = NotificationResponse). After a
 * reconnect, `Last-Event-ID` (header, or `lastEventId` query for clients that cannot set headers)
 * replays what was missed; without it the stream starts from now.
 */
export function registerNotificationStream(app: HttpApp, { database }: AppDeps) {
  const hub = new NotificationHub(database)
  app.addHook('onClose', async () => hub.close())

  async function latestSeq(auth: BusinessAuth) {
    const row = await scopedNotifications(database.db, auth)
      .clearSelect()
      .select(sql<number>`coalesce(max(n.seq), 0)`.as('seq'))
      .executeTakeFirst()
    return Number(row?.seq ?? 0)
  }

  app.get(
    '/api/notifications/stream',
    {
      config: { access: { permission: ['Settings', 'View'] } },
      schema: {
        operationId: 'StreamUserNotifications',
        summary: "The caller's new notifications as server-sent events",
        description:
          'text/event-stream; each event has id (sequence), event: notification, data: a NotificationResponse. Send Last-Event-ID after a reconnect to receive what was missed. ' +
          'Works across processes on PostgreSQL (LISTEN/NOTIFY); a comment line every 15 s keeps proxies from closing it.',
        tags: ['Notifications'],
        security: CORE_SECURITY,
        querystring: Type.Object({ lastEventId: Type.Optional(Type.Integer({ minimum: 0 })) }),
        response: {
          200: {
            description: 'Server-sent events, one per new notification',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorResponses('core', 400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const auth = businessAuthOf(request)
      const header = request.headers['last-event-id']
      const resume =
        typeof header === 'string' && /^\d{1,15}$/.test(header.trim())
          ? Number(header)
          : request.query.lastEventId
      let last = resume ?? (await latestSeq(auth))
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
            const rows = await scopedNotifications(database.db, auth)
              .where('n.seq', '>', last)
              .orderBy('n.seq')
              .limit(BATCH)
              .execute()
            for (const row of rows) {
              if (closed) return
              raw.write(
                `id: ${row.seq}\nevent: notification\ndata: ${JSON.stringify(toNotification(row))}\n\n`,
              )
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
      const subscriber = { businessId: auth.businessId, wake: () => void drain() }
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS)
      request.raw.on('close', () => {
        closed = true
        clearInterval(heartbeat)
        hub.unsubscribe(subscriber)
      })
      await hub.subscribe(subscriber)
      await drain()
    },
  )
}
