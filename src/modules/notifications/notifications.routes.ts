import { Type } from '@sinclair/typebox'
import { CORE_SECURITY } from '../../apps/core/security.js'
import type { AppDeps } from '../../apps/deps.js'
import { businessAuthOf } from '../../http/auth-hook.js'
import { PagedResult } from '../../http/envelopes.js'
import { errorResponses } from '../../http/error-responses.js'
import type { HttpApp } from '../../http/kernel.js'
import { registerNotificationStream } from './notification-stream.js'
import { registerNotificationHandler } from './notifications.handler.js'
import {
  NotificationParams,
  NotificationQuery,
  NotificationResponse,
  NotificationResult,
  PatchNotificationRequest,
  UserNotificationsQuery,
} from './notifications.schemas.js'
import {
  getNotification,
  markAllRead,
  patchNotification,
  userNotifications,
} from './notifications.service.js'

const TAGS = ['Notifications']
const MEMBER = { access: { signedIn: true, business: true } } as const

/** In-app notifications: a user's own notifications in the current business. */
export function registerNotificationRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  registerNotificationHandler()
  app.get(
    '/api/notifications/user',
    {
      config: { access: { permission: ['Settings', 'View'] } },
      schema: {
        operationId: 'GetUserNotifications',
        summary: "The caller's notifications, newest first",
        description:
          'Unread only unless includeRead=true. For an API key, the notifications of the owner who created it.',
        tags: TAGS,
        security: CORE_SECURITY,
        querystring: UserNotificationsQuery,
        response: {
          200: PagedResult('core', NotificationResponse),
          ...errorResponses('core', 400, 401, 403),
        },
      },
    },
    async (request) => userNotifications(database, businessAuthOf(request), request.query),
  )
  app.get(
    '/api/notification',
    {
      config: MEMBER,
      schema: {
        operationId: 'GetNotification',
        summary: 'One of the caller’s notifications',
        description: '404 when unknown or not the caller’s.',
        tags: TAGS,
        security: CORE_SECURITY,
        querystring: NotificationQuery,
        response: {
          200: NotificationResult(NotificationResponse, 'NotificationResponseNotificationResult'),
          ...errorResponses('core', 400, 401, 404),
        },
      },
    },
    async (request) => getNotification(database, businessAuthOf(request), request.query.id),
  )
  app.patch(
    '/api/notification/mark-all-read',
    {
      config: MEMBER,
      schema: {
        operationId: 'MarkAllNotificationsRead',
        summary: "Mark all the caller's unread notifications read",
        description: 'One bulk update; data is the number marked.',
        tags: TAGS,
        security: CORE_SECURITY,
        response: {
          200: NotificationResult(Type.Integer(), 'MarkAllReadNotificationResult'),
          ...errorResponses('core', 401),
        },
      },
    },
    async (request) => markAllRead(database, businessAuthOf(request)),
  )
  app.patch(
    '/api/notification/:id',
    {
      config: MEMBER,
      schema: {
        operationId: 'PatchNotification',
        summary: 'Set the read state of one of the caller’s notifications',
        tags: TAGS,
        security: CORE_SECURITY,
        params: NotificationParams,
        body: PatchNotificationRequest,
        response: {
          200: NotificationResult(Type.Boolean(), 'PatchNotificationResult'),
          ...errorResponses('core', 400, 401, 404),
        },
      },
    },
    async (request) =>
      patchNotification(database, businessAuthOf(request), request.params.id, request.body.read),
  )
  registerNotificationStream(app, deps)
}
