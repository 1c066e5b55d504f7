import { type SqlBool, sql, type Transaction } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { searchCondition } from '../../../http/list-query.js'
import { escapeLike } from '../../../http/odata/index.js'
import type { ContactResponse } from './contacts.schemas.js'
import type { AttachmentResponse } from './customers.schemas.js'

const CUSTOMER_COLUMNS = [
  'c.id',
  'c.business_id',
  'c.code',
  'c.name',
  'c.email',
  'c.phone_number',
  'c.customer_group_id',
  'c.type',
  'c.status',
  'c.billing_address',
  'c.shipping_address',
  'c.metadata',
  'c.notes',
  'c.date_created',
  'c.date_modified',
  'g.name as customer_group_name',
] as const

/** A timestamp as JSON text the way `Date.toISOString()` writes it (milliseconds, UTC, truncated). */
const isoText = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * The customer's contacts (primary first, then in order of creation) and attachments (with the
 * stored file's details) as JSON arrays in the API's shape, computed by correlated subqueries of
 * the same statement: an item or a page is one round trip.
 */
function childColumns(schemaName: string) {
  const contacts = sql<ContactResponse[]>`coalesce((select json_agg(json_build_object(
      'id', cc.id, 'customerId', cc.customer_id, 'firstName', cc.first_name, 'lastName', cc.last_name,
      'email', cc.email, 'phoneNumber', cc.phone_number, 'role', cc.role, 'isPrimary', cc.is_primary,
      'dateCreated', ${isoText('cc.date_created')}, 'dateModified', ${isoText('cc.date_modified')}
    ) order by cc.is_primary desc, cc.date_created, cc.id)
    from ${sql.table(`${schemaName}.customer_contacts`)} cc
    where cc.business_id = c.business_id and cc.customer_id = c.id), '[]'::json)`
  const attachments = sql<AttachmentResponse[]>`coalesce((select json_agg(json_build_object(
      'id', a.id, 'type', a.type, 'fileId', a.file_id, 'fileName', f.file_name,
      'contentType', f.content_type, 'sizeBytes', f.size_bytes, 'title', a.title, 'url', a.url,
      'dateCreated', ${isoText('a.date_created')}
    ) order by a.date_created, a.id)
    from ${sql.table(`${schemaName}.customer_attachments`)} a
    left join ${sql.table(`${schemaName}.files`)} f on f.id = a.file_id and f.business_id = a.business_id
    where a.business_id = c.business_id and a.customer_id = c.id), '[]'::json)`
  return [contacts.as('contacts'), attachments.as('attachments')] as const
}

/**
 * Live customers of the business with their group's name, contacts and attachments: the base of
 * every read. The group join is to-one (a live customer's group is always live: deleting a group
 * moves its customers first), so it never multiplies rows on a list page.
 */
export function scopedCustomers(db: Executor, schemaName: string, businessId: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('customers as c')
    .leftJoin('customer_groups as g', 'g.id', 'c.customer_group_id')
    .where('c.business_id', '=', businessId)
    .where('c.deleted_at', 'is', null)
    .select(CUSTOMER_COLUMNS)
    .select(childColumns(schemaName))
}

type ScopedCustomers = ReturnType<typeof scopedCustomers>

export type CustomerRow = Awaited<ReturnType<ScopedCustomers['executeTakeFirstOrThrow']>>

/**
 * Name, email or phone number, or the full name (so the first or last name too) of one of its
 * contacts. Written as `id IN (matching customers UNION customers of matching contacts)` so each
 * side is a trigram-index lookup (migration add-customer-search-indexes) rather than a scan of
 * every customer; IN keeps one row per customer, so totalCount and pages stay exact.
 */
export function matchingSearch(scoped: ScopedCustomers, text: string) {
  const pattern = `%${escapeLike(text.trim())}%`
  // Query-builder subqueries (not raw SQL), so withSchema qualifies their tables too.
  return scoped.where((eb) =>
    eb(
      'c.id',
      'in',
      eb
        .selectFrom('customers as m')
        .select('m.id')
        .where(searchCondition(text, ['m.name', 'm.email', 'm.phone_number']))
        .union(
          eb
            .selectFrom('customer_contacts as cc')
            .select('cc.customer_id as id')
            .where(
              sql<SqlBool>`(cc.first_name || ' ' || coalesce(cc.last_name, '')) ilike ${pattern} escape '\\'`,
            ),
        ),
    ),
  )
}

/** One customer with everything the API shows of it, in one statement compiled once per schema. */
const customerById = new SchemaStatement((db, schemaName, v: { businessId: string; id: string }) =>
  scopedCustomers(db, schemaName, v.businessId).where('c.id', '=', v.id),
)

export async function findCustomer(db: Executor, schemaName: string, businessId: string, id: string) {
  return customerById.takeFirst(db, schemaName, { businessId, id })
}

/**
 * The number of live customers of the business, kept by a trigger (customer_counts): the total of
 * a list nothing filters, without counting every customer.
 */
export function liveCustomerCount(schemaName: string, businessId: string) {
  return sql<number>`coalesce((select live from ${sql.table(`${schemaName}.customer_counts`)} where business_id = ${businessId}), 0)`
}

/**
 * The pages in the default order (no `$filter`, `$search` or `$orderby`), with the total of live
 * customers: the list's common shape, compiled once per schema like `findCustomer`. The page is
 * chosen in a subquery and its contacts and attachments read outside it: PostgreSQL computes a
 * select list for every row an OFFSET skips, so a deep page (an export reads them all) would
 * otherwise read the children of all the rows before it.
 */
const defaultPage = new SchemaStatement(
  (db, schemaName, v: { businessId: string; limit: number; offset: number }) => {
    const page = db
      .withSchema(schemaName)
      .selectFrom('customers as c')
      .leftJoin('customer_groups as g', 'g.id', 'c.customer_group_id')
      .where('c.business_id', '=', v.businessId)
      .where('c.deleted_at', 'is', null)
      .select(CUSTOMER_COLUMNS)
      .orderBy('c.date_created', 'desc')
      .orderBy('c.id')
      .limit(v.limit)
      .offset(v.offset)
    return db
      .selectFrom(page.as('c'))
      .selectAll('c')
      .select(childColumns(schemaName))
      .select(liveCustomerCount(schemaName, v.businessId).as('__total'))
      .orderBy('c.date_created', 'desc')
      .orderBy('c.id')
  },
)

export async function customersInDefaultOrder(
  db: Executor,
  schemaName: string,
  values: { businessId: string; limit: number; offset: number },
) {
  return defaultPage.execute(db, schemaName, values)
}

/** A live customer of the business: another business's, or a deleted one, counts as absent. */
export async function customerExists(db: Executor, schemaName: string, businessId: string, id: string) {
  const row = await db
    .withSchema(schemaName)
    .selectFrom('customers')
    .select('id')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Locks a live customer until the transaction ends and returns its editable state. `update` for
 * changes to the customer or its contacts, `share` to add to its history without blocking readers.
 */
export async function lockCustomer(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  id: string,
  mode: 'update' | 'share' = 'update',
) {
  const query = trx
    .withSchema(schemaName)
    .selectFrom('customers')
    .select([
      'id',
      'name',
      'email',
      'phone_number',
      'customer_group_id',
      'type',
      'status',
      'billing_address',
      'shipping_address',
      'metadata',
      'notes',
    ])
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
  return (mode === 'update' ? query.forUpdate() : query.forShare()).executeTakeFirst()
}

export type LockedCustomer = NonNullable<Awaited<ReturnType<typeof lockCustomer>>>

/** Columns a create or a PUT writes; addresses and metadata as JSON text for the jsonb columns. */
export interface CustomerWrite {
  name: string
  email: string | null
  phone_number: string | null
  customer_group_id: string | null
  type: string
  status: string
  billing_address: string | null
  shipping_address: string | null
  notes: string | null
}

export async function insertCustomer(
  trx: Transaction<Tables>,
  schemaName: string,
  row: CustomerWrite & { id: string; business_id: string; code: string; metadata: string },
) {
  await trx.withSchema(schemaName).insertInto('customers').values(row).execute()
}

export async function updateCustomer(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  id: string,
  values: CustomerWrite & { metadata?: string },
) {
  await trx
    .withSchema(schemaName)
    .updateTable('customers')
    .set({ ...values, date_modified: sql`now()` })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .execute()
}

/** Soft-deletes the live customers among `ids`; returns the ids it deleted. */
export async function softDeleteCustomers(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  ids: readonly string[],
) {
  const rows = await trx
    .withSchema(schemaName)
    .updateTable('customers')
    .set({ deleted_at: sql`now()`, date_modified: sql`now()` })
    .where('id', 'in', ids)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
}
