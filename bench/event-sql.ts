/**
 * What a bare route writes for the domain events of one request, in one statement: an audit entry
 * per event (as the audit module files it: its entity, the event type as action, the payload) and
 * the webhook outbox rows of every enabled endpoint subscribed to its type (none in the bench's
 * organisation, so only the lookup runs). Cartage writes the same rows one event at a time.
 */
import type { Fresh, ResolvedSeed, Statement } from './scenario-types.js'

export interface BenchEvent {
  /** The domain event's type: the audit entry's action. */
  action: string
  /** Its webhook type (`order.status_changed`). */
  type: string
  /** The audit entry's entity (the webhook's resource, `Order`) and the resource field naming it (`orderId`). */
  entityType: string
  resourceField: string
  payload: Record<string, unknown>
}

export function eventsStatement(
  name: string,
  events: (seed: ResolvedSeed, fresh: Fresh) => BenchEvent[],
): Statement {
  return {
    name: `bench-events-${name}`,
    sql: ({ schemaName: s }) =>
      `WITH ev AS MATERIALIZED (
         SELECT gen_random_uuid() AS id, e.*
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[]) WITH ORDINALITY
           AS e(action, type, entity_type, resource_key, payload, n)
       ), audited AS (
         INSERT INTO "${s}".audit_log (business_id, actor_type, actor_id, entity_type, entity_id, action, changes, payload, request_id)
         SELECT $1::uuid, (global.audit_actor()).actor_type, (global.audit_actor()).actor_id, ev.entity_type,
           split_part(ev.resource_key, ':', 2), ev.action, '{}', ev.payload, (global.audit_actor()).request_id
         FROM ev ORDER BY ev.n
       ), targets AS (
         SELECT ev.id AS event_id, w.id AS endpoint_id FROM ev
         JOIN "${s}".webhook_endpoints w ON w.business_id = $1::uuid AND w.enabled AND ev.type = ANY (w.event_types)
       ), written AS (
         INSERT INTO "${s}".webhook_events (id, business_id, type, resource_key, payload)
         SELECT ev.id, $1::uuid, ev.type, ev.resource_key, jsonb_build_object('businessId', $1::text) || ev.payload
         FROM ev WHERE ev.id IN (SELECT event_id FROM targets) ORDER BY ev.n
         RETURNING id, seq, resource_key
       )
       INSERT INTO "${s}".webhook_deliveries (id, business_id, event_id, endpoint_id, event_seq, resource_key)
       SELECT gen_random_uuid(), $1::uuid, written.id, targets.endpoint_id, written.seq, written.resource_key
       FROM written JOIN targets ON targets.event_id = written.id`,
    params: (seed, fresh) => {
      const list = events(seed, fresh)
      return [
        seed.businessId,
        list.map((e) => e.action),
        list.map((e) => e.type),
        list.map((e) => e.entityType),
        list.map((e) => `${e.resourceField}:${String(e.payload[e.resourceField] ?? '')}`),
        list.map((e) => JSON.stringify(e.payload)),
      ]
    },
  }
}
