import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { MessageEntry } from '../../http/envelopes.js'
import { DateTime, Nullable, Uuid } from '../../http/schema-helpers.js'

export const NotificationResponse = Type.Object({
  id: Uuid(),
  title: Type.String(),
  message: Type.String(),
  readNotification: Type.Boolean(),
  priority: Type.String({ description: 'Low, Medium, High, Maximum' }),
  type: Type.String({ description: 'Default, Business, User' }),
  level: Type.String({ description: 'Standard, Info, Warning, Error, Success, Recommendation' }),
  actionLink: Nullable(Type.String()),
  entityType: Type.String({ description: 'a DispatchEntityType name' }),
  entityId: Nullable(Uuid()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
  user: Type.Object({ id: Uuid(), firstName: Type.String(), lastName: Type.String(), email: Type.String() }),
})
export type NotificationResponse = Static<typeof NotificationResponse>

/** SingleResult plus the notification reads' extra fields. */
export function NotificationResult<T extends TSchema>(data: T, title: string) {
  return Type.Object(
    {
      data,
      statusCode: Type.String(),
      messages: Type.Array(MessageEntry),
      message: Type.String(),
      canRead: Type.Boolean(),
      canEdit: Type.Boolean(),
      canDelete: Type.Boolean(),
    },
    { title },
  )
}

export const UserNotificationsQuery = Type.Object({
  includeRead: Type.Boolean({ default: false }),
  Page: Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 }),
  PageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
})
export const NotificationQuery = Type.Object({ id: Type.Optional(Uuid()) })
export const NotificationParams = Type.Object({ id: Uuid() })
export const PatchNotificationRequest = Type.Object({ read: Type.Boolean() })

/** `Last-Event-ID` for clients that cannot set headers (EventSource in a browser). */
export const StreamQuery = Type.Object({ lastEventId: Type.Optional(Type.Integer({ minimum: 0 })) })

/** The stream's success answer, documented as an event stream rather than a JSON body. */
export const NotificationEventStream = Type.Unsafe<string>({
  description: 'Server-sent events, one per new notification',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
})
