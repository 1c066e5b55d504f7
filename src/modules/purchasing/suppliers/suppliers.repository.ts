import { sql, type Transaction } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { SupplierContactResponse } from './suppliers.schemas.js'

const SUPPLIER_COLUMNS = [
  's.id',
  's.business_id',
  's.code',
  's.name',
  's.email',
  's.phone_number',
  's.website',
  's.currency',
  's.payment_terms',
  's.lead_time_days',
  's.tax_number',
  's.address',
  's.remittance_address',
  's.metadata',
  's.notes',
  's.is_active',
  's.deleted_at',
  's.date_created',
  's.date_modified',
] as const

/**
 * The supplier's contacts as a JSON array in the API's shape (primary first, then in the order
 * they were written), a correlated subquery of the same statement: an item or a page is one round trip.
 */
function contactsColumn(schemaName: string) {
  return sql<SupplierContactResponse[]>`coalesce((select json_agg(json_build_object(
      'id', sc.id, 'firstName', sc.first_name, 'lastName', sc.last_name, 'email', sc.email,
      'phoneNumber', sc.phone_number, 'role', sc.role, 'isPrimary', sc.is_primary
    ) order by sc.is_primary desc, sc.date_created, sc.id)
    from ${sql.table(`${schemaName}.supplier_contacts`)} sc
    where sc.supplier_id = s.id), '[]'::json)`.as('contacts')
}

/** Suppliers of the business with their contacts; live ones only unless `includeDeleted`. */
export function scopedSuppliers(
  db: Executor,
  schemaName: string,
  businessId: string,
  includeDeleted = false,
) {
  const query = db
    .withSchema(schemaName)
    .selectFrom('suppliers as s')
    .where('s.business_id', '=', businessId)
    .select(SUPPLIER_COLUMNS)
    .select(contactsColumn(schemaName))
  return includeDeleted ? query : query.where('s.deleted_at', 'is', null)
}

export type SupplierRow = Awaited<ReturnType<ReturnType<typeof scopedSuppliers>['executeTakeFirstOrThrow']>>

/** One live supplier with its contacts, compiled once per schema (read on every supplier request). */
const liveSupplierById = new SchemaStatement((db, schemaName, v: { businessId: string; id: string }) =>
  scopedSuppliers(db, schemaName, v.businessId).where('s.id', '=', v.id),
)

export function findSupplier(
  db: Executor,
  schemaName: string,
  businessId: string,
  id: string,
  includeDeleted = false,
): Promise<SupplierRow | undefined> {
  if (includeDeleted)
    return scopedSuppliers(db, schemaName, businessId, true).where('s.id', '=', id).executeTakeFirst()
  return liveSupplierById.takeFirst(db, schemaName, { businessId, id })
}

/**
 * The first pages in the default order (no `$filter`, `$search` or `$orderby`) with the total, the
 * list's common shape, compiled once per schema and prepared like `findSupplier`.
 */
const defaultPage = new SchemaStatement(
  (db, schemaName, v: { businessId: string; limit: number; offset: number }) =>
    scopedSuppliers(db, schemaName, v.businessId)
      .select(sql<number>`count(*) over ()`.as('__total'))
      .orderBy('s.date_created', 'desc')
      .orderBy('s.id')
      .limit(v.limit)
      .offset(v.offset),
)

export const suppliersInDefaultOrder = (
  db: Executor,
  schemaName: string,
  values: { businessId: string; limit: number; offset: number },
) => defaultPage.execute(db, schemaName, values)

/** Locks a live supplier of the business until the transaction ends: `update` to change it, `share` to add terms. */
export function lockSupplier(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  id: string,
  mode: 'update' | 'share',
) {
  const query = trx
    .withSchema(schemaName)
    .selectFrom('suppliers')
    .select(['id', 'currency', 'is_active'])
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
  return (mode === 'update' ? query.forUpdate() : query.forShare()).executeTakeFirst()
}

export async function businessCurrency(
  db: Executor,
  schemaName: string,
  businessId: string,
): Promise<string> {
  const row = await db
    .withSchema(schemaName)
    .selectFrom('businesses')
    .select('currency')
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.currency
}

/** Columns a create or PUT writes; addresses as JSON text for the jsonb columns. */
export interface SupplierWrite {
  name: string
  email: string | null
  phone_number: string | null
  website: string | null
  currency: string
  payment_terms: string
  lead_time_days: number
  tax_number: string | null
  address: string | null
  remittance_address: string | null
  notes: string | null
  is_active: boolean
}

export interface ContactValues {
  first_name: string
  last_name: string | null
  email: string | null
  phone_number: string | null
  role: string | null
  is_primary: boolean
}

export async function insertSupplier(
  trx: Transaction<Tables>,
  schemaName: string,
  row: SupplierWrite & { id: string; business_id: string; code: string; metadata: string },
) {
  await trx.withSchema(schemaName).insertInto('suppliers').values(row).execute()
}

export async function updateSupplier(
  trx: Transaction<Tables>,
  schemaName: string,
  id: string,
  values: SupplierWrite & { metadata?: string },
) {
  await trx
    .withSchema(schemaName)
    .updateTable('suppliers')
    .set({ ...values, date_modified: sql`now()` })
    .where('id', '=', id)
    .execute()
}

/**
 * Replaces the supplier's contacts. Each gets a creation time one microsecond after the one before,
 * so the read keeps the order they were given in.
 */
export async function replaceContacts(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  supplierId: string,
  contacts: readonly (ContactValues & { id: string })[],
) {
  await trx
    .withSchema(schemaName)
    .deleteFrom('supplier_contacts')
    .where('supplier_id', '=', supplierId)
    .execute()
  if (contacts.length === 0) return
  await trx
    .withSchema(schemaName)
    .insertInto('supplier_contacts')
    .values(
      contacts.map((contact, i) => ({
        ...contact,
        business_id: businessId,
        supplier_id: supplierId,
        date_created: sql<Date>`now() + make_interval(secs => ${i}::double precision / 1000000)`,
      })),
    )
    .execute()
}

/**
 * Soft-deletes a live supplier and drops its product terms (they are offers, not history: purchase
 * orders keep their own prices). Returns false when there was no live supplier to delete.
 */
export async function softDeleteSupplier(trx: Transaction<Tables>, schemaName: string, id: string) {
  const deleted = await trx
    .withSchema(schemaName)
    .updateTable('suppliers')
    .set({ deleted_at: sql`now()`, date_modified: sql`now()` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  if (!deleted) return false
  await trx.withSchema(schemaName).deleteFrom('supplier_products').where('supplier_id', '=', id).execute()
  return true
}

/** An inactive supplier is nobody's preferred supplier: clears its flags when it is deactivated. */
export async function clearPreferredOf(trx: Transaction<Tables>, schemaName: string, supplierId: string) {
  await trx
    .withSchema(schemaName)
    .updateTable('supplier_products')
    .set({ is_preferred: false, date_modified: sql`now()` })
    .where('supplier_id', '=', supplierId)
    .where('is_preferred', '=', true)
    .execute()
}
