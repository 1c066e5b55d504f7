import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

/** The endpoint columns the API shows (never the secrets). */
const COLUMNS = [
  'id',
  'business_id',
  'url',
  'description',
  'event_types',
  'enabled',
  'consecutive_failures',
  'disabled_reason',
  'previous_secret_expires_at',
  'date_created',
  'date_modified',
] as const

export function scopedEndpoints(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('webhook_endpoints')
    .where('business_id', '=', businessId)
    .select(COLUMNS)
}

export type EndpointRow = NonNullable<Awaited<ReturnType<typeof findEndpoint>>>

export function findEndpoint(db: Executor, schema: string, businessId: string, id: string) {
  return scopedEndpoints(db, schema, businessId).where('id', '=', id).executeTakeFirst()
}

/** The endpoint with its signing secrets (the previous one only while its grace period lasts). */
export function findEndpointWithSecrets(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .selectFrom('webhook_endpoints')
    .select([
      'id',
      'url',
      'secret',
      sql<string | null>`case when previous_secret_expires_at > now() then previous_secret end`.as(
        'previous_secret',
      ),
    ])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export interface EndpointValues {
  url: string
  description: string | null
  event_types: string[]
  enabled: boolean
}

/** `db` for the global list of schemas, `organisation` for the schema (the same transaction on one cluster). */
export async function insertEndpoint(
  db: Executor,
  organisation: Executor,
  schema: string,
  values: EndpointValues & { id: string; business_id: string; secret: string },
) {
  // The worker visits only schemas listed here; an existing row is left alone (no lock taken).
  await db
    .insertInto('global.webhook_schemas')
    .values({ schema_name: schema })
    .onConflict((oc) => oc.column('schema_name').doNothing())
    .execute()
  return organisation
    .withSchema(schema)
    .insertInto('webhook_endpoints')
    .values(values)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

/** Replaces the editable fields; enabling an endpoint again clears its failure count and reason. */
export function updateEndpoint(
  db: Executor,
  schema: string,
  businessId: string,
  id: string,
  values: EndpointValues,
) {
  return db
    .withSchema(schema)
    .updateTable('webhook_endpoints')
    .set({
      ...values,
      consecutive_failures: values.enabled ? 0 : sql<number>`consecutive_failures`,
      disabled_reason: values.enabled ? null : sql<string | null>`disabled_reason`,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning(COLUMNS)
    .executeTakeFirst()
}

export function deleteEndpoint(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning('id')
    .executeTakeFirst()
}

/** A new secret; the one it replaces keeps signing until `graceSeconds` from now. */
export function rotateSecret(
  db: Executor,
  schema: string,
  businessId: string,
  id: string,
  secret: string,
  graceSeconds: number,
) {
  return db
    .withSchema(schema)
    .updateTable('webhook_endpoints')
    .set({
      previous_secret: sql<string>`secret`,
      previous_secret_expires_at: sql<Date>`now() + make_interval(secs => ${graceSeconds})`,
      secret,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning(COLUMNS)
    .executeTakeFirst()
}
