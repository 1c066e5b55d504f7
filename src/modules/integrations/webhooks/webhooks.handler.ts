import type { Executor } from '../../../db/tables.js'
import type {
  DeclaredEvent,
  DomainEvent,
  DomainEventHandler,
  PublishedEvent,
} from '../../../platform/domain-events.js'
import { insertOutboxEvent, insertOutboxEvents } from './outbox.repository.js'

/** The event type a test-send carries; never written to the outbox. */
export const TEST_EVENT_TYPE = 'webhook.test'

/** Every webhook event type the modules declare (`<module>.events.ts`), with what it says. */
export const webhookEventTypes = (declared: readonly DeclaredEvent[]) =>
  declared.flatMap(({ webhook }) =>
    webhook ? [{ type: webhook.type, description: webhook.description }] : [],
  )

/** What a domain event becomes on the wire: its declared type, and its payload with the business. */
function webhookEventOf(event: DomainEvent, { webhook }: DeclaredEvent) {
  if (!webhook) return undefined
  const resourceId = (event.payload as Readonly<Record<string, unknown>>)[webhook.resourceField]
  return {
    type: webhook.type,
    resourceKey: `${webhook.resourceField}:${typeof resourceId === 'string' ? resourceId : ''}`,
    data: { businessId: event.businessId, ...event.payload },
  }
}

/**
 * Writes the webhook event of a domain event into the outbox, in the publisher's transaction: the
 * event commits with its change or not at all. Fanned out at once to the subscribed endpoints'
 * deliveries; nothing is written when no enabled endpoint of the business wants the type.
 */
export const writeWebhookOutbox: DomainEventHandler = Object.assign(
  async (...[db, schema, event, declared]: Parameters<DomainEventHandler>) => {
    const webhookEvent = webhookEventOf(event, declared)
    if (!webhookEvent) return
    await insertOutboxEvent(db, schema, { businessId: event.businessId, ...webhookEvent })
  },
  {
    /** The events of one publishAll in one statement. */
    many: async (db: Executor, schema: string, events: readonly PublishedEvent[]) =>
      insertOutboxEvents(
        db,
        schema,
        events.flatMap(({ event, declared }) => {
          const webhookEvent = webhookEventOf(event, declared)
          return webhookEvent ? [{ businessId: event.businessId, ...webhookEvent }] : []
        }),
      ),
  },
)
