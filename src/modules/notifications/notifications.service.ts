import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import type { Executor } from '../../db/tables.js'
import { notFound } from '../../errors.js'
import { paged, single } from '../../http/envelopes.js'
import type { BusinessAuth } from '../../security/auth-context.js'

const notificationNotFound = () =>
  notFound('notification_not_found', 'You have no notification with this id.')

/** The caller's notifications in this business, with the user joined from the global schema. */
export function scopedNotifications(db: Executor, auth: BusinessAuth) {
  return db
    .selectFrom(`${auth.schemaName}.notifications as n` as 'notifications as n')
    .innerJoin('global.users as u', 'u.id', 'n.user_id')
    .where('n.user_id', '=', auth.userId)
    .where('n.business_id', '=', auth.businessId)
    .select([
      'n.id',
      'n.seq',
      'n.title',
      'n.message',
      'n.read',
      'n.priority',
      'n.type',
      'n.level',
      'n.action_link',
      'n.entity_type',
      'n.entity_id',
      'n.date_created',
      'n.date_modified',
      'u.id as user_id',
      'u.first_name',
      'u.last_name',
      'u.email',
    ])
}
export type NotificationRow = Awaited<ReturnType<ReturnType<typeof scopedNotifications>['execute']>>[number]

export function toNotification(row: NotificationRow) {
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

/** The single-notification envelope: SingleResult plus message, canRead, canEdit, canDelete. */
const notificationResult = <T>(data: T) => ({
  ...single('core', data),
  message: '',
  canRead: true,
  canEdit: true,
  canDelete: false,
})

export async function userNotifications(
  database: Database,
  auth: BusinessAuth,
  query: { includeRead: boolean; Page: number; PageSize: number },
) {
  let scoped = scopedNotifications(database.db, auth)
  if (!query.includeRead) scoped = scoped.where('n.read', '=', false)
  const rows = await scoped
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('n.seq', 'desc')
    .limit(query.PageSize)
    .offset((query.Page - 1) * query.PageSize)
    .execute()
  let total = Number(rows[0]?.total ?? 0)
  if (rows.length === 0 && query.Page > 1) {
    const counted = await scoped.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirst()
    total = counted?.n ?? 0
  }
  return paged('core', rows.map(toNotification), total, { page: query.Page, pageSize: query.PageSize })
}

export async function getNotification(database: Database, auth: BusinessAuth, id: string | undefined) {
  if (!id) throw notificationNotFound()
  const row = await scopedNotifications(database.db, auth).where('n.id', '=', id).executeTakeFirst()
  if (!row) throw notificationNotFound()
  return notificationResult(toNotification(row))
}

export async function patchNotification(database: Database, auth: BusinessAuth, id: string, read: boolean) {
  const updated = await database.db
    .withSchema(auth.schemaName)
    .updateTable('notifications')
    .set({ read, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('user_id', '=', auth.userId)
    .where('business_id', '=', auth.businessId)
    .returning('id')
    .executeTakeFirst()
  if (!updated) throw notificationNotFound()
  return notificationResult(true)
}

/** One bulk UPDATE of the caller's unread notifications; the number marked. */
export async function markAllRead(database: Database, auth: BusinessAuth) {
  const result = await database.db
    .withSchema(auth.schemaName)
    .updateTable('notifications')
    .set({ read: true, date_modified: sql<Date>`now()` })
    .where('user_id', '=', auth.userId)
    .where('business_id', '=', auth.businessId)
    .where('read', '=', false)
    .executeTakeFirst()
  return notificationResult(Number(result.numUpdatedRows))
}
