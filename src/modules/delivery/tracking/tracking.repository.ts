import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor } from '../../../db/tables.js'

/** 32 random bytes, URL-safe: the link cannot be guessed or walked. */
export const newToken = () => randomBytes(32).toString('base64url')

/**
 * The link a token opens. The page is public and read on every visit: its two statements are
 * compiled once and run prepared (db/schema-statements.ts); the links live in the global schema,
 * so this one has one text.
 */
const linkStatement = new SchemaStatement((db, _global, v: { token: string }) =>
  db
    .selectFrom('global.tracking_links')
    .select(['schema_name', 'business_id', 'shipment_id'])
    .where('token', '=', v.token),
)
export const linkByToken = (db: Executor, token: string) => linkStatement.takeFirst(db, 'global', { token })

/** The link a token opens among those another cluster keeps (db/clusters.ts). */
export const linkOnCluster = (db: Executor, token: string) =>
  db
    .selectFrom('global.tracking_links')
    .select(['schema_name', 'business_id', 'shipment_id'])
    .where('token', '=', token)
    .executeTakeFirst()

export function linkOfShipment(db: Executor, schema: string, shipmentId: string) {
  return db
    .selectFrom('global.tracking_links')
    .select(['token', 'email_to', 'mail_due', 'emailed_at'])
    .where('schema_name', '=', schema)
    .where('shipment_id', '=', shipmentId)
    .executeTakeFirst()
}

/**
 * The shipment's link, made if it has none; `mailTo` (when given) is due to receive it, again
 * if it already did (a replanned shipment dispatched anew).
 */
export async function saveLink(
  db: Executor,
  schema: string,
  businessId: string,
  shipmentId: string,
  mailTo?: string | null,
) {
  const insert = db.insertInto('global.tracking_links').values({
    token: newToken(),
    schema_name: schema,
    business_id: businessId,
    shipment_id: shipmentId,
    email_to: mailTo ?? null,
    mail_due: Boolean(mailTo),
  })
  await (mailTo
    ? insert.onConflict((oc) =>
        oc
          .columns(['schema_name', 'shipment_id'])
          .doUpdateSet({ email_to: mailTo, mail_due: true, mail_attempts: 0 }),
      )
    : insert.onConflict((oc) => oc.columns(['schema_name', 'shipment_id']).doNothing())
  ).execute()
  return (await linkOfShipment(db, schema, shipmentId))!
}

/**
 * `saveLink` for many shipments in one statement (a plan's dispatch): each shipment's link, made
 * if it has none; one given an address is due to be mailed there, again if it was before (a
 * replanned shipment dispatched anew); one without keeps its link as it was.
 */
export async function saveLinks(
  db: Executor,
  schema: string,
  businessId: string,
  links: readonly { shipmentId: string; mailTo: string | null }[],
) {
  if (links.length === 0) return
  await sql`
    INSERT INTO global.tracking_links AS t (token, schema_name, business_id, shipment_id, email_to, mail_due)
    SELECT x.token, ${schema}, ${businessId}, x.shipment_id, x.email_to, x.email_to IS NOT NULL
    FROM unnest(${sql.val(links.map(() => newToken()))}::text[], ${sql.val(links.map((l) => l.shipmentId))}::uuid[],
                ${sql.val(links.map((l) => l.mailTo))}::text[]) AS x(token, shipment_id, email_to)
    ON CONFLICT (schema_name, shipment_id) DO UPDATE
      SET email_to = excluded.email_to, mail_due = true, mail_attempts = 0
      WHERE excluded.email_to IS NOT NULL`.execute(db)
}

/** The shipments a plan's dispatch put on their way, with their customer's contact address. */
export function dispatchedWithContacts(db: Executor, schema: string, businessId: string, planId: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .leftJoin('customers as c', (join) =>
      join.onRef('c.id', '=', 's.customer_id').onRef('c.business_id', '=', 's.business_id'),
    )
    .select('s.id')
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('customer_contacts as cc')
            .select('cc.email')
            .whereRef('cc.customer_id', '=', 's.customer_id')
            .where('cc.email', 'is not', null)
            .orderBy('cc.is_primary', 'desc')
            .orderBy('cc.date_created')
            .limit(1),
          'c.email',
        )
        .as('email'),
    )
    .where('s.business_id', '=', businessId)
    .where('s.delivery_plan_id', '=', planId)
    .where('s.status', '=', 'InTransit')
    .execute()
}

/** What the public page shows of a shipment: status, stamps, the expected day, its windows and planned arrival; nothing else. */
const trackedStatement = new SchemaStatement((db, schema, v: { businessId: string; id: string }) =>
  db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .leftJoin('delivery_plans as p', 'p.id', 's.delivery_plan_id')
    .innerJoin('businesses as b', 'b.id', 's.business_id')
    .select([
      'b.timezone',
      's.delivery_windows',
      's.planned_arrival',
      's.status',
      's.date_created',
      's.dispatched_at',
      's.delivered_at',
      's.failed_at',
      's.returned_at',
      's.cancelled_at',
      's.scheduled_date',
      'p.scheduled_date as plan_date',
    ])
    .select((eb) =>
      eb
        .selectFrom('stop_operations as o')
        .select((o) => o.fn.max('o.occurred_at').as('at'))
        .whereRef('o.shipment_id', '=', 's.id')
        .where('o.kind', '=', 'Arrived')
        .where(sql<boolean>`o.delivery_plan_id IS NOT DISTINCT FROM s.delivery_plan_id`)
        .as('arrived_at'),
    )
    .where('s.business_id', '=', v.businessId)
    .where('s.id', '=', v.id),
)
export const trackedShipment = (db: Executor, schema: string, businessId: string, id: string) =>
  trackedStatement.takeFirst(db, schema, { businessId, id })

/** Claims up to `limit` due mails (several processes may send: each is claimed once). */
export function claimDueMails(db: Executor, limit: number) {
  return db
    .updateTable('global.tracking_links')
    .set((eb) => ({ mail_due: false, mail_attempts: eb('mail_attempts', '+', 1) }))
    .where('token', 'in', (eb) =>
      eb
        .selectFrom('global.tracking_links')
        .select('token')
        .where('mail_due', '=', true)
        .orderBy('date_created')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['token', 'schema_name', 'business_id', 'shipment_id', 'email_to', 'mail_attempts'])
    .execute()
}

export function markMailed(db: Executor, token: string, sent: boolean, retry: boolean) {
  return db
    .updateTable('global.tracking_links')
    .set(sent ? { emailed_at: sql<Date>`now()` } : { mail_due: retry })
    .where('token', '=', token)
    .execute()
}

/**
 * The shipment's code. `forLink`: locked FOR SHARE until the link is saved, so a move of the
 * organisation to another cluster (which holds its tables EXCLUSIVE) waits for the link, or the
 * link for the move, and no link is made on the cluster the organisation is leaving.
 */
export function shipmentCode(db: Executor, schema: string, id: string, businessId: string, forLink = false) {
  const query = db
    .withSchema(schema)
    .selectFrom('shipments')
    .select('code')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
  return (forLink ? query.forShare() : query).executeTakeFirst()
}
