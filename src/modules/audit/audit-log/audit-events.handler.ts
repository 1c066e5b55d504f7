import { sql } from 'kysely'
import type { DomainEventHandler } from '../../../platform/domain-events.js'

/** `delivery_plan.dispatched` -> `DeliveryPlan`: the entity a webhook event type names. */
const entityOfWebhookType = (type: string): string =>
  (type.split('.')[0] ?? type)
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')

/** The actor's parts from the `cartage.actor` setting (db/actor.ts), as the audit triggers read it. */
const actorPart = (n: 1 | 2 | 3) =>
  sql`nullif(split_part(coalesce(current_setting('cartage.actor', true), ''), '|', ${sql.lit(n)}), '')`

/**
 * Every domain event becomes an audit entry in the publisher's transaction, beside the row changes
 * the triggers record: its action is the event's type (OrderStatusChanged), its entity the resource
 * its webhook names (an order), and it keeps the payload, the one the notification and the webhook
 * body are made from. An event without a webhook is filed under its own type.
 */
export const recordEventInAuditLog: DomainEventHandler = async (db, schemaName, event, declared) => {
  const resourceField = declared.webhook?.resourceField
  const resourceId = resourceField ? (event.payload as Record<string, unknown>)[resourceField] : undefined
  await db
    .withSchema(schemaName)
    .insertInto('audit_log')
    .values({
      business_id: event.businessId,
      actor_type: sql<string>`coalesce(${actorPart(1)}, 'System')`,
      actor_id: sql<string | null>`${actorPart(2)}::uuid`,
      entity_type: declared.webhook ? entityOfWebhookType(declared.webhook.type) : event.type,
      entity_id: typeof resourceId === 'string' ? resourceId : null,
      action: event.type,
      changes: JSON.stringify({}),
      payload: JSON.stringify(event.payload),
      request_id: sql<string | null>`${actorPart(3)}`,
    })
    .execute()
}
