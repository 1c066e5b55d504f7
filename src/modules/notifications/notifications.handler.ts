import type { DomainEventHandler } from '../../platform/domain-events.js'
import { announce, insertForMembers } from './notifications.repository.js'

/**
 * Turns domain events into one notification per active member of the business's organisation, in
 * the publisher's transaction, then announces them with pg_notify, which PostgreSQL delivers only
 * if and when that transaction commits. What each event says, and which other businesses hear of it
 * (a transfer's other end), is declared by the module that publishes it (`<module>.events.ts`).
 */
export const notifyMembers: DomainEventHandler = async (db, schema, event, declared) => {
  const notification = declared.notification
  if (!notification) return
  const content = notification.content(event)
  for (const businessId of [event.businessId, ...(notification.alsoNotifies?.(event) ?? [])]) {
    if ((await insertForMembers(db, schema, businessId, content)) > 0) await announce(db, schema, businessId)
  }
}
