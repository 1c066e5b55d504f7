import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'
import type { DomainEventHandler, PublishedEvent } from '../../../platform/domain-events.js'

/** `delivery_plan.dispatched` -> `DeliveryPlan`: the entity a webhook event type names. */
const entityOfWebhookType = (type: string): string =>
  (type.split('.')[0] ?? type)
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')

/** The request's actor, as the row triggers read it (migrations/20261217090000-one-audit-actor-function.ts). */
const actor = (part: 'actor_type' | 'actor_id' | 'request_id') => sql.raw(`(global.audit_actor()).${part}`)

/** The audit entry of one event. */
function entryOf({ event, declared }: PublishedEvent) {
  const resourceField = declared.webhook?.resourceField
  const resourceId = resourceField ? (event.payload as Record<string, unknown>)[resourceField] : undefined
  return {
    business_id: event.businessId,
    actor_type: sql<string>`${actor('actor_type')}`,
    actor_id: sql<string | null>`${actor('actor_id')}`,
    entity_type: declared.webhook ? entityOfWebhookType(declared.webhook.type) : event.type,
    entity_id: typeof resourceId === 'string' ? resourceId : null,
    action: event.type,
    changes: JSON.stringify({}),
    payload: JSON.stringify(event.payload),
    request_id: sql<string | null>`${actor('request_id')}`,
  }
}

async function insertEntries(db: Executor, schemaName: string, events: readonly PublishedEvent[]) {
  if (events.length > 0)
    await db.withSchema(schemaName).insertInto('audit_log').values(events.map(entryOf)).execute()
}

/**
 * Every domain event becomes an audit entry in the publisher's transaction, beside the row changes
 * the triggers record: its action is the event's type (OrderStatusChanged), its entity the resource
 * its webhook names (an order), and it keeps the payload, the one the notification and the webhook
 * body are made from. An event without a webhook is filed under its own type. The events of one
 * publishAll are written in one statement, in order.
 */
export const recordEventInAuditLog: DomainEventHandler = Object.assign(
  async (...[db, schemaName, event, declared]: Parameters<DomainEventHandler>) => {
    await insertEntries(db, schemaName, [{ event, declared }])
  },
  { many: insertEntries },
)
