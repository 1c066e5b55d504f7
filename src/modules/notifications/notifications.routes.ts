import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../http/auth-hook.js'
import { PagedResult } from '../../http/envelopes.js'
import type { HttpApp } from '../../http/kernel.js'
import { operation } from '../../http/operation.js'
import type { AppDeps } from '../../platform/deps.js'
import { NotificationHub } from './notification-hub.js'
import { streamNotifications } from './notification-stream.js'
import {
  NotificationEventStream,
  NotificationParams,
  NotificationQuery,
  NotificationResponse,
  NotificationResult,
  PatchNotificationRequest,
  StreamQuery,
  UserNotificationsQuery,
} from './notifications.schemas.js'
import {
  getNotification,
  markAllRead,
  patchNotification,
  userNotifications,
} from './notifications.service.js'

const TAGS = ['Notifications']
const MEMBER = { signedIn: true, business: true } as const

/** In-app notifications: a user's own notifications in the current business. */
export function registerNotificationRoutes(app: HttpApp, { database }: AppDeps) {
  const hub = new NotificationHub(database)
  // Before the server waits for its connections: an open stream would otherwise hold it to the cut-off.
  app.addHook('preClose', async () => hub.endStreams())
  app.addHook('onClose', async () => hub.close())

  app.get(
    '/api/notifications/user',
    operation(['Settings', 'View'], {
      operationId: 'GetUserNotifications',
      summary: "The caller's notifications, newest first",
      description:
        'Unread only unless includeRead=true. For an API key, the notifications of the owner who created it.',
      tags: TAGS,
      querystring: UserNotificationsQuery,
      response: PagedResult('core', NotificationResponse),
      errors: [400],
    }),
    async (request) => userNotifications(database, businessAuthOf(request), request.query),
  )
  app.get(
    '/api/notification',
    operation(MEMBER, {
      operationId: 'GetNotification',
      summary: 'One of the caller’s notifications',
      description: '404 when unknown or not the caller’s.',
      tags: TAGS,
      querystring: NotificationQuery,
      response: NotificationResult(NotificationResponse, 'NotificationResponseNotificationResult'),
      errors: [400, 404],
    }),
    async (request) => getNotification(database, businessAuthOf(request), request.query.id),
  )
  app.patch(
    '/api/notification/mark-all-read',
    operation(MEMBER, {
      operationId: 'MarkAllNotificationsRead',
      summary: "Mark all the caller's unread notifications read",
      description: 'One bulk update; data is the number marked.',
      tags: TAGS,
      response: NotificationResult(Type.Integer(), 'MarkAllReadNotificationResult'),
      errors: [],
    }),
    async (request) => markAllRead(database, businessAuthOf(request)),
  )
  app.patch(
    '/api/notification/:id',
    operation(MEMBER, {
      operationId: 'PatchNotification',
      summary: 'Set the read state of one of the caller’s notifications',
      tags: TAGS,
      params: NotificationParams,
      body: PatchNotificationRequest,
      response: NotificationResult(Type.Boolean(), 'PatchNotificationResult'),
      errors: [400, 404],
    }),
    async (request) =>
      patchNotification(database, businessAuthOf(request), request.params.id, request.body.read),
  )
  app.get(
    '/api/notifications/stream',
    operation(['Settings', 'View'], {
      operationId: 'StreamUserNotifications',
      summary: "The caller's new notifications as server-sent events",
      description:
        'text/event-stream; each event has id (sequence), event: notification, data: a NotificationResponse. Send Last-Event-ID after a reconnect to receive what was missed. ' +
        'Works across processes on PostgreSQL (LISTEN/NOTIFY); a comment line every 15 s keeps proxies from closing it. ' +
        'When the server shuts down it sends `event: shutdown` and ends the stream: reconnect (after the `retry` it sent) with Last-Event-ID.',
      tags: TAGS,
      querystring: StreamQuery,
      response: NotificationEventStream,
      errors: [400],
    }),
    async (request, reply) => {
      // The header after a reconnect; the query for clients that cannot set headers.
      const header = request.headers['last-event-id']
      const resume =
        typeof header === 'string' && /^\d{1,15}$/.test(header.trim())
          ? Number(header)
          : request.query.lastEventId
      await streamNotifications(database, hub, businessAuthOf(request), resume, reply)
    },
  )
}
