import type { NotificationRow } from './notifications.repository.js'
import type { NotificationResponse } from './notifications.schemas.js'

export function toNotification(row: NotificationRow): NotificationResponse {
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    readNotification: row.read,
    priority: row.priority,
    type: row.type,
    level: row.level,
    actionLink: row.action_link,
    entityType: row.entity_type,
    entityId: row.entity_id,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
    user: { id: row.user_id, firstName: row.first_name, lastName: row.last_name, email: row.email },
  }
}
