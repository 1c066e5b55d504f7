import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/** The most events one range replay queues; a wider range is replayed in several calls. */
export const REPLAY_LIMIT = 10_000

export function scopedAttempts(db: Executor, schema: string, businessId: string, endpointId: string) {
  return db
    .withSchema(schema)
    .selectFrom('webhook_attempts')
    .where('business_id', '=', businessId)
    .where('endpoint_id', '=', endpointId)
    .selectAll()
}

export type AttemptRow = Awaited<ReturnType<ReturnType<typeof scopedAttempts>['executeTakeFirstOrThrow']>>

export interface DeliveryState {
  endpointId: string
  status: string
  attempts: number
  nextAttemptAt: string
}

/** Events of the business, each with its deliveries (one per endpoint it went or goes to). */
export function scopedEvents(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('webhook_events as ev')
    .where('ev.business_id', '=', businessId)
    .select([
      'ev.id',
      'ev.type',
      'ev.resource_key',
      'ev.payload',
      'ev.date_created',
      sql<DeliveryState[]>`coalesce((
        SELECT json_agg(json_build_object('endpointId', d.endpoint_id, 'status', d.status,
          'attempts', d.attempts, 'nextAttemptAt', d.next_attempt_at) ORDER BY d.date_created)
        FROM ${table(schema, 'webhook_deliveries')} AS d WHERE d.event_id = ev.id), '[]'::json)`.as(
        'deliveries',
      ),
    ])
}

export type EventRow = Awaited<ReturnType<ReturnType<typeof scopedEvents>['executeTakeFirstOrThrow']>>

/** Queues the event again to every enabled endpoint subscribed to its type; how many deliveries, or null for no such event. */
export async function replayEvent(db: Executor, schema: string, businessId: string, eventId: string) {
  const result = await sql<{ queued: number | null }>`
    WITH event AS (
      SELECT id, seq, type, resource_key FROM ${table(schema, 'webhook_events')}
      WHERE id = ${eventId} AND business_id = ${businessId}
    ), queued AS (
      INSERT INTO ${table(schema, 'webhook_deliveries')} (id, business_id, event_id, endpoint_id, event_seq, resource_key)
      SELECT gen_random_uuid(), ${businessId}, event.id, e.id, event.seq, event.resource_key
      FROM event JOIN ${table(schema, 'webhook_endpoints')} AS e
        ON e.business_id = ${businessId} AND e.enabled AND event.type = ANY (e.event_types)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM queued)::int AS queued FROM event`.execute(db)
  return result.rows[0]?.queued ?? null
}

/** Queues again to one endpoint the events of its types written in [from, to); how many. */
export async function replayRange(
  db: Executor,
  schema: string,
  businessId: string,
  endpointId: string,
  from: Date,
  to: Date,
) {
  const result = await sql<{ queued: number }>`
    WITH queued AS (
      INSERT INTO ${table(schema, 'webhook_deliveries')} (id, business_id, event_id, endpoint_id, event_seq, resource_key)
      SELECT gen_random_uuid(), ${businessId}, picked.id, ${endpointId}, picked.seq, picked.resource_key
      FROM (
        SELECT ev.id, ev.seq, ev.resource_key FROM ${table(schema, 'webhook_events')} AS ev
        JOIN ${table(schema, 'webhook_endpoints')} AS e ON e.id = ${endpointId} AND e.business_id = ${businessId}
        WHERE ev.business_id = ${businessId} AND ev.date_created >= ${from} AND ev.date_created < ${to}
          AND ev.type = ANY (e.event_types)
        ORDER BY ev.seq
        LIMIT ${REPLAY_LIMIT}
      ) AS picked
      RETURNING 1
    )
    SELECT count(*)::int AS queued FROM queued`.execute(db)
  return result.rows[0]?.queued ?? 0
}
