import type { DomainEventHandler } from '../../../platform/domain-events.js'
import { insertOutboxEvent } from './outbox.repository.js'
import { webhookEventOf } from './webhook-event-types.js'

/**
 * Writes the webhook event of a domain event into the outbox, in the publisher's transaction: the
 * event commits with its change or not at all. Fanned out at once to the subscribed endpoints'
 * deliveries; nothing is written when no enabled endpoint of the business wants the type.
 */
export const writeWebhookOutbox: DomainEventHandler = async (db, schema, event) => {
  const webhookEvent = webhookEventOf(event)
  if (!webhookEvent) return
  await insertOutboxEvent(db, schema, { businessId: event.businessId, ...webhookEvent })
}
