import { sql } from 'kysely'
import type { Executor } from '../../db/tables.js'
import type { NotificationContent } from '../../platform/domain-events.js'
import type { BusinessAuth } from '../../security/auth-context.js'

/** The channel new notifications are announced on (PostgreSQL delivers NOTIFY at commit). */
export const NOTIFICATION_CHANNEL = 'cartage_notifications'

/**
 * The caller's notifications in this business. The caller's name is read apart (`withCaller`): the
 * global users live on the main cluster, the organisation's schema perhaps on another.
 */
function scopedNotifications(db: Executor, auth: BusinessAuth) {
  return db
    .selectFrom(`${auth.schemaName}.notifications as n` as 'notifications as n')
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
      'n.user_id',
    ])
}
type Caller = { first_name: string; last_name: string; email: string }
export type NotificationRow = Awaited<ReturnType<ReturnType<typeof scopedNotifications>['execute']>>[number] &
  Caller

/** The rows with the caller's name and email; none when the caller is no longer a user. */
async function withCaller<R extends { user_id: string }>(
  db: Executor,
  auth: BusinessAuth,
  rows: R[],
): Promise<(R & Caller)[]> {
  if (rows.length === 0) return []
  const user = await db
    .selectFrom('global.users')
    .where('id', '=', auth.userId)
    .select(['first_name', 'last_name', 'email'])
    .executeTakeFirst()
  return user ? rows.map((row) => ({ ...row, ...user })) : []
}

const listed = (db: Executor, auth: BusinessAuth, includeRead: boolean) => {
  const scoped = scopedNotifications(db, auth)
  return includeRead ? scoped : scoped.where('n.read', '=', false)
}

/** One page, newest first, each row carrying the total of the whole list. */
export function notificationPage(
  db: Executor,
  auth: BusinessAuth,
  page: { includeRead: boolean; limit: number; offset: number },
) {
  return listed(db, auth, page.includeRead)
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('n.seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
    .then((rows) => withCaller(db, auth, rows))
}

/** The size of the list, for a page past its end (which has no row to carry it). */
export async function countNotifications(db: Executor, auth: BusinessAuth, includeRead: boolean) {
  const counted = await listed(db, auth, includeRead)
    .clearSelect()
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirst()
  return counted?.n ?? 0
}

export function findNotification(db: Executor, auth: BusinessAuth, id: string) {
  return scopedNotifications(db, auth)
    .where('n.id', '=', id)
    .execute()
    .then(async (rows) => (await withCaller(db, auth, rows))[0])
}

/** Sets the read state of one of the caller's notifications; false when the caller has none with this id. */
export async function setRead(db: Executor, auth: BusinessAuth, id: string, read: boolean) {
  const updated = await db
    .withSchema(auth.schemaName)
    .updateTable('notifications')
    .set({ read, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('user_id', '=', auth.userId)
    .where('business_id', '=', auth.businessId)
    .returning('id')
    .executeTakeFirst()
  return updated !== undefined
}

/** One bulk UPDATE of the caller's unread notifications; the number marked. */
export async function markAllRead(db: Executor, auth: BusinessAuth) {
  const result = await db
    .withSchema(auth.schemaName)
    .updateTable('notifications')
    .set({ read: true, date_modified: sql<Date>`now()` })
    .where('user_id', '=', auth.userId)
    .where('business_id', '=', auth.businessId)
    .where('read', '=', false)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** The sequence of the caller's newest notification (0 without any): where a fresh stream starts. */
export async function latestSeq(db: Executor, auth: BusinessAuth) {
  const row = await scopedNotifications(db, auth)
    .clearSelect()
    .select(sql<number>`coalesce(max(n.seq), 0)`.as('seq'))
    .executeTakeFirst()
  return Number(row?.seq ?? 0)
}

/** The caller's notifications after `seq`, oldest first, at most `limit`. */
export function notificationsAfter(db: Executor, auth: BusinessAuth, seq: number, limit: number) {
  return scopedNotifications(db, auth)
    .where('n.seq', '>', seq)
    .orderBy('n.seq')
    .limit(limit)
    .execute()
    .then((rows) => withCaller(db, auth, rows))
}

/**
 * One notification per active member of the business's organisation, in one INSERT ... SELECT;
 * the number written.
 */
export async function insertForMembers(
  db: Executor,
  schema: string,
  businessId: string,
  content: NotificationContent,
) {
  // The members are global rows, on the main cluster; the notifications go to the organisation's
  // schema, perhaps on another: two statements, each where its tables are.
  const members = await sql<{ user_id: string }>`
    SELECT m.user_id FROM global.memberships m
    JOIN global.businesses b ON b.organization_id = m.organization_id
    WHERE b.id = ${businessId} AND m.status = 'Active'`.execute(db)
  if (members.rows.length === 0) return 0
  const inserted = await sql<{ n: number }>`
    WITH created AS (
      INSERT INTO ${sql.table(`${schema}.notifications`)}
        (id, business_id, user_id, title, message, level, priority, type, entity_type, entity_id, action_link)
      SELECT gen_random_uuid(), ${businessId}, u.id, ${content.title}, ${content.message}, ${content.level},
             ${content.priority}, 'Business', ${content.entityType}, ${content.entityId}, ${content.actionLink}
      FROM unnest(${members.rows.map((m) => m.user_id)}::uuid[]) AS u(id)
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM created`.execute(db)
  return inserted.rows[0]?.n ?? 0
}

/** Tells the streams of every process that the business has new notifications, once the transaction commits. */
export async function announce(db: Executor, schema: string, businessId: string) {
  await sql`SELECT pg_notify(${NOTIFICATION_CHANNEL}, ${JSON.stringify({ schema, businessId })})`.execute(db)
}
