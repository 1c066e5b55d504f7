import type { Database } from '../../db/database.js'
import { paged, single } from '../../http/envelopes.js'
import type { BusinessAuth } from '../../security/auth-context.js'
import { notificationNotFound } from './notifications.errors.js'
import { toNotification } from './notifications.mapper.js'
import * as repository from './notifications.repository.js'

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
  const rows = await repository.notificationPage(database.db, auth, {
    includeRead: query.includeRead,
    limit: query.PageSize,
    offset: (query.Page - 1) * query.PageSize,
  })
  let total = Number(rows[0]?.total ?? 0)
  if (rows.length === 0 && query.Page > 1) {
    total = await repository.countNotifications(database.db, auth, query.includeRead)
  }
  return paged('core', rows.map(toNotification), total, { page: query.Page, pageSize: query.PageSize })
}

export async function getNotification(database: Database, auth: BusinessAuth, id: string | undefined) {
  if (!id) throw notificationNotFound()
  const row = await repository.findNotification(database.db, auth, id)
  if (!row) throw notificationNotFound()
  return notificationResult(toNotification(row))
}

export async function patchNotification(database: Database, auth: BusinessAuth, id: string, read: boolean) {
  if (!(await repository.setRead(database.db, auth, id, read))) throw notificationNotFound()
  return notificationResult(true)
}

/** Marks every unread notification of the caller read; data is the number marked. */
export async function markAllRead(database: Database, auth: BusinessAuth) {
  return notificationResult(await repository.markAllRead(database.db, auth))
}
