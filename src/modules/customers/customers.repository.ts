import { type Kysely, sql, type Transaction } from 'kysely'
import type { Tables } from '../../db/schema.js'

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

/**
 * Live customers of the business with their group's name: the base of every read. The group join
 * is to-one (a live customer's group is always live: deleting a group moves its customers first),
 * so it never multiplies rows on a list page.
 */
export function scopedCustomers(db: Kysely<Tables>, schemaName: string, businessId: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('customers as c')
    .leftJoin('customer_groups as g', 'g.id', 'c.customer_group_id')
    .where('c.business_id', '=', businessId)
    .where('c.deleted_at', 'is', null)
    .select(CUSTOMER_COLUMNS)
}

export type CustomerRow = Awaited<ReturnType<ReturnType<typeof scopedCustomers>['executeTakeFirstOrThrow']>>

export async function findCustomer(db: Kysely<Tables>, schemaName: string, businessId: string, id: string) {
  return scopedCustomers(db, schemaName, businessId).where('c.id', '=', id).executeTakeFirst()
}

/** A live customer of the business: another business's, or a deleted one, counts as absent. */
export async function customerExists(db: Kysely<Tables>, schemaName: string, businessId: string, id: string) {
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

/** Contacts of several customers in one query: primary first, then in order of creation. */
export async function contactsOf(
  db: Kysely<Tables>,
  schemaName: string,
  businessId: string,
  customerIds: string[],
) {
  if (customerIds.length === 0) return []
  return db
    .withSchema(schemaName)
    .selectFrom('customer_contacts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('customer_id', 'in', customerIds)
    .orderBy('is_primary', 'desc')
    .orderBy('date_created')
    .orderBy('id')
    .execute()
}

export type ContactRow = Awaited<ReturnType<typeof contactsOf>>[number]

/** Attachments of several customers in one query, with the stored file's details for file entries. */
export async function attachmentsOf(
  db: Kysely<Tables>,
  schemaName: string,
  businessId: string,
  customerIds: string[],
) {
  if (customerIds.length === 0) return []
  return db
    .withSchema(schemaName)
    .selectFrom('customer_attachments as a')
    .leftJoin('files as f', (join) =>
      join.onRef('f.id', '=', 'a.file_id').onRef('f.business_id', '=', 'a.business_id'),
    )
    .select([
      'a.id',
      'a.customer_id',
      'a.type',
      'a.file_id',
      'f.file_name',
      'f.content_type',
      'f.size_bytes',
      'a.title',
      'a.url',
      'a.date_created',
    ])
    .where('a.business_id', '=', businessId)
    .where('a.customer_id', 'in', customerIds)
    .orderBy('a.date_created')
    .orderBy('a.id')
    .execute()
}

export type AttachmentRow = Awaited<ReturnType<typeof attachmentsOf>>[number]

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
