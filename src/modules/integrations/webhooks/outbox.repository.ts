import { sql } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/**
 * Writes an event and one delivery per enabled endpoint of the business subscribed to its type,
 * in one statement in the caller's transaction. With no such endpoint nothing is written: the
 * statement is then one index lookup, so a business without webhooks pays next to nothing.
 */
export async function insertOutboxEvent(
  db: Executor,
  schema: string,
  event: { businessId: string; type: string; resourceKey: string; data: Record<string, unknown> },
) {
  const eventId = newId()
  await sql`
    WITH targets AS (
      SELECT id FROM ${table(schema, 'webhook_endpoints')}
      WHERE business_id = ${event.businessId} AND enabled AND ${event.type} = ANY (event_types)
    ), written AS (
      INSERT INTO ${table(schema, 'webhook_events')} (id, business_id, type, resource_key, payload)
      SELECT ${eventId}, ${event.businessId}, ${event.type}, ${event.resourceKey}, ${JSON.stringify(event.data)}::jsonb
      WHERE EXISTS (SELECT 1 FROM targets)
      RETURNING id, seq
    )
    INSERT INTO ${table(schema, 'webhook_deliveries')} (id, business_id, event_id, endpoint_id, event_seq, resource_key)
    SELECT gen_random_uuid(), ${event.businessId}, written.id, targets.id, written.seq, ${event.resourceKey}
    FROM written CROSS JOIN targets`.execute(db)
}

/**
 * `insertOutboxEvent` for several events of one transaction in one statement, in order (so each
 * resource's events keep their order): the events any enabled endpoint wants and their deliveries.
 */
export async function insertOutboxEvents(
  db: Executor,
  schema: string,
  events: readonly { businessId: string; type: string; resourceKey: string; data: Record<string, unknown> }[],
) {
  if (events.length === 0) return
  const column = <T>(value: (e: (typeof events)[number]) => T) => sql.val(events.map(value))
  await sql`
    WITH ev AS MATERIALIZED (
      SELECT e.* FROM unnest(${column(() => newId())}::uuid[], ${column((e) => e.businessId)}::uuid[],
        ${column((e) => e.type)}::text[], ${column((e) => e.resourceKey)}::text[],
        ${column((e) => JSON.stringify(e.data))}::jsonb[])
        WITH ORDINALITY AS e(id, business_id, type, resource_key, payload, n)
    ), targets AS (
      SELECT ev.id AS event_id, w.id AS endpoint_id FROM ev
      JOIN ${table(schema, 'webhook_endpoints')} w
        ON w.business_id = ev.business_id AND w.enabled AND ev.type = ANY (w.event_types)
    ), written AS (
      INSERT INTO ${table(schema, 'webhook_events')} (id, business_id, type, resource_key, payload)
      SELECT ev.id, ev.business_id, ev.type, ev.resource_key, ev.payload FROM ev
      WHERE EXISTS (SELECT 1 FROM targets WHERE targets.event_id = ev.id)
      ORDER BY ev.n
      RETURNING id, seq, business_id, resource_key
    )
    INSERT INTO ${table(schema, 'webhook_deliveries')} (id, business_id, event_id, endpoint_id, event_seq, resource_key)
    SELECT gen_random_uuid(), written.business_id, written.id, targets.endpoint_id, written.seq, written.resource_key
    FROM written JOIN targets ON targets.event_id = written.id`.execute(db)
}

/** The organisation schemas that have (or had) webhook endpoints. */
export async function schemasWithEndpoints(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('global.webhook_schemas')
    .select('schema_name')
    .orderBy('schema_name')
    .execute()
  return rows.map((row) => row.schema_name)
}

export interface ClaimedDelivery {
  id: string
  business_id: string
  event_id: string
  endpoint_id: string
  attempts: number
  event_type: string
  payload: Record<string, unknown>
  event_date: Date
  url: string
  secret: string
  previous_secret: string | null
}

/**
 * Claims up to `limit` due deliveries for `leaseMs` and counts the attempt. SKIP LOCKED lets
 * several processes claim at once without waiting on each other or taking the same row; the lease
 * keeps a claimed delivery from being claimed again while it is being sent, and lets it be claimed
 * again when a process dies holding it. A delivery waits while an earlier event of the same
 * resource is still pending to the same endpoint, so each endpoint sees a resource's events in order.
 */
export async function claimDeliveries(
  db: Executor,
  schema: string,
  leaseToken: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const deliveries = table(schema, 'webhook_deliveries')
  const endpoints = table(schema, 'webhook_endpoints')
  const result = await sql<ClaimedDelivery>`
    UPDATE ${deliveries} AS d
    SET locked_until = now() + make_interval(secs => ${leaseMs / 1000}), lease_token = ${leaseToken},
        attempts = d.attempts + 1
    FROM (
      SELECT c.id FROM ${deliveries} AS c
      JOIN ${endpoints} AS ce ON ce.id = c.endpoint_id AND ce.enabled
      WHERE c.status = 'Pending' AND c.next_attempt_at <= now()
        AND (c.locked_until IS NULL OR c.locked_until < now())
        AND NOT EXISTS (
          SELECT 1 FROM ${deliveries} AS p
          WHERE p.endpoint_id = c.endpoint_id AND p.resource_key = c.resource_key
            AND p.status = 'Pending' AND p.event_seq < c.event_seq
        )
      ORDER BY c.next_attempt_at, c.event_seq
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED
    ) AS claimable, ${table(schema, 'webhook_events')} AS ev, ${endpoints} AS e
    WHERE d.id = claimable.id AND ev.id = d.event_id AND e.id = d.endpoint_id
    RETURNING d.id, d.business_id, d.event_id, d.endpoint_id, d.attempts, ev.type AS event_type,
      ev.payload, ev.date_created AS event_date, e.url, e.secret,
      CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret`.execute(
    db,
  )
  return result.rows
}

export interface AttemptValues {
  business_id: string
  endpoint_id: string
  delivery_id: string | null
  event_id: string | null
  event_type: string
  attempt: number
  outcome: string
  response_status: number | null
  latency_ms: number
  response_body: string | null
  error: string | null
}

export function insertAttempt(db: Executor, schema: string, values: AttemptValues) {
  return db
    .withSchema(schema)
    .insertInto('webhook_attempts')
    .values({ ...values, id: newId() })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Settles a claimed delivery: Delivered, Failed (attempts exhausted) or Pending again at
 * `retryAt`. Only the holder of the lease settles it; a process whose lease ran out and was
 * claimed again by another changes nothing.
 */
export function settleDelivery(
  db: Executor,
  schema: string,
  id: string,
  leaseToken: string,
  status: 'Delivered' | 'Failed' | 'Pending',
  retryAt: Date | null,
) {
  return db
    .withSchema(schema)
    .updateTable('webhook_deliveries')
    .set({
      status,
      locked_until: null,
      lease_token: null,
      ...(retryAt ? { next_attempt_at: retryAt } : {}),
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .executeTakeFirst()
}

/** Counts a failed attempt against the endpoint (or clears the count on success); the new count. */
export async function countEndpointOutcome(
  db: Executor,
  schema: string,
  endpointId: string,
  succeeded: boolean,
) {
  const row = await db
    .withSchema(schema)
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: succeeded ? 0 : sql<number>`consecutive_failures + 1` })
    .where('id', '=', endpointId)
    .returning(['consecutive_failures', 'enabled', 'url'])
    .executeTakeFirst()
  return row
}

/** Disables an enabled endpoint; true when this call disabled it. */
export async function disableEndpoint(db: Executor, schema: string, endpointId: string, reason: string) {
  const row = await db
    .withSchema(schema)
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, date_modified: sql<Date>`now()` })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}
