import type { DomainEvent, DomainEventHandler } from '../../platform/domain-events.js'
import { contentOf } from './notification-messages.js'
import { announce, insertForMembers } from './notifications.repository.js'

/**
 * Turns domain events into one notification per active member of the business's organisation (for
 * a transfer's steps, in each of its two businesses), in
 * the publisher's transaction, then announces them with pg_notify, which PostgreSQL delivers only
 * if and when that transaction commits.
 */
export const notifyMembers: DomainEventHandler = async (db, schema, event) => {
  const content = contentOf(event)
  if (!content) return
  for (const businessId of concernedBusinesses(event)) {
    if ((await insertForMembers(db, schema, businessId, content)) > 0) await announce(db, schema, businessId)
  }
}

/** The business the event happened in, and for a transfer's steps the business at its other end too. */
function concernedBusinesses(event: DomainEvent): string[] {
  const { sourceBusinessId, destinationBusinessId } = event.payload
  const transfer = event.type === 'TransferOrderShipped' || event.type === 'TransferOrderReceived'
  const other = [sourceBusinessId, destinationBusinessId].find(
    (id): id is string => typeof id === 'string' && id !== event.businessId,
  )
  return transfer && other ? [event.businessId, other] : [event.businessId]
}
