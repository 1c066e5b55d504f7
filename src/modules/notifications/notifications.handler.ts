import { sql } from 'kysely'
import type { DomainEventHandler } from '../../platform/domain-events.js'
import { contentOf } from './notification-messages.js'

/** The channel new notifications are announced on (PostgreSQL delivers NOTIFY at commit). */
export const NOTIFICATION_CHANNEL = 'cartage_notifications'

/**
 * Turns domain events into one notification per active member of the business's organisation, in
 * the publisher's transaction (one INSERT ... SELECT), then announces them with pg_notify, which
 * PostgreSQL delivers only if and when that transaction commits.
 */
export const notifyMembers: DomainEventHandler = async (db, schema, event) => {
  const content = contentOf(event)
  if (!content) return
  const inserted = await sql<{ n: number }>`
    WITH created AS (
      INSERT INTO ${sql.table(`${schema}.notifications`)}
        (id, business_id, user_id, title, message, level, priority, type, entity_type, entity_id, action_link)
      SELECT gen_random_uuid(), ${event.businessId}, m.user_id, ${content.title}, ${content.message}, ${content.level},
             ${content.priority}, 'Business', ${content.entityType}, ${content.entityId}, ${content.actionLink}
      FROM global.memberships m
      JOIN global.businesses b ON b.organization_id = m.organization_id
      WHERE b.id = ${event.businessId} AND m.status = 'Active'
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM created`.execute(db)
  if ((inserted.rows[0]?.n ?? 0) > 0) {
    await sql`SELECT pg_notify(${NOTIFICATION_CHANNEL}, ${JSON.stringify({ schema, businessId: event.businessId })})`.execute(
      db,
    )
  }
}
