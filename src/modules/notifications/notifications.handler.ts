import type { DomainEventHandler } from '../../platform/domain-events.js'
import { contentOf } from './notification-messages.js'
import { announce, insertForMembers } from './notifications.repository.js'

/**
 * Turns domain events into one notification per active member of the business's organisation, in
 * the publisher's transaction, then announces them with pg_notify, which PostgreSQL delivers only
 * if and when that transaction commits.
 */
export const notifyMembers: DomainEventHandler = async (db, schema, event) => {
  const content = contentOf(event)
  if (!content) return
  if ((await insertForMembers(db, schema, event.businessId, content)) > 0) {
    await announce(db, schema, event.businessId)
  }
}
