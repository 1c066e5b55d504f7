import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

const COLUMNS = [
  'sp.supplier_id',
  'sp.product_id',
  'p.sku as product_sku',
  'p.name as product_name',
  'sp.supplier_sku',
  'sp.unit_cost',
  's.currency',
  'sp.minimum_order_quantity',
  'sp.lead_time_days',
  sql<number>`coalesce(sp.lead_time_days, s.lead_time_days)`.as('effective_lead_time_days'),
  'sp.is_preferred',
  'sp.date_created',
  'sp.date_modified',
] as const

/** The terms of one supplier of the business, with the product's SKU and name. */
export function scopedTerms(db: Executor, schemaName: string, businessId: string, supplierId: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('supplier_products as sp')
    .innerJoin('products as p', 'p.id', 'sp.product_id')
    .innerJoin('suppliers as s', 's.id', 'sp.supplier_id')
    .where('sp.business_id', '=', businessId)
    .where('sp.supplier_id', '=', supplierId)
    .select(COLUMNS)
}

export type TermsRow = Awaited<ReturnType<ReturnType<typeof scopedTerms>['executeTakeFirstOrThrow']>>

export const findTerms = (
  db: Executor,
  schemaName: string,
  businessId: string,
  supplierId: string,
  productId: string,
) =>
  scopedTerms(db, schemaName, businessId, supplierId)
    .where('sp.product_id', '=', productId)
    .executeTakeFirst()

/**
 * Reads a product of the business and locks it until commit. Making a supplier preferred takes
 * `no key update`, so two such writes for one product run one after the other (the second sees and
 * clears the first's flag); other terms writes take `key share`, which blocks nothing but deletion.
 */
export function lockProductForTerms(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  productId: string,
  preferred: boolean,
) {
  const query = trx
    .withSchema(schemaName)
    .selectFrom('products')
    .select('id')
    .where('id', '=', productId)
    .where('business_id', '=', businessId)
  return (preferred ? query.forNoKeyUpdate() : query.forKeyShare()).executeTakeFirst()
}

/** Clears the preferred flag of the product's other suppliers. */
export async function clearOtherPreferred(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  supplierId: string,
  productId: string,
) {
  await trx
    .withSchema(schemaName)
    .updateTable('supplier_products')
    .set({ is_preferred: false, date_modified: sql`now()` })
    .where('business_id', '=', businessId)
    .where('product_id', '=', productId)
    .where('is_preferred', '=', true)
    .where('supplier_id', '<>', supplierId)
    .execute()
}

export interface TermsValues {
  supplier_sku: string | null
  unit_cost: number
  minimum_order_quantity: number
  lead_time_days: number | null
  is_preferred: boolean
}

/** Inserts or replaces the supplier's terms for the product (one row per supplier and product). */
export async function upsertTerms(
  trx: Transaction<Tables>,
  schemaName: string,
  row: TermsValues & { id: string; business_id: string; supplier_id: string; product_id: string },
) {
  const { id: _id, business_id: _b, supplier_id: _s, product_id: _p, ...values } = row
  await trx
    .withSchema(schemaName)
    .insertInto('supplier_products')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'supplier_id', 'product_id'])
        .doUpdateSet({ ...values, date_modified: sql`now()` }),
    )
    .execute()
}

export async function deleteTerms(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  supplierId: string,
  productId: string,
) {
  const deleted = await trx
    .withSchema(schemaName)
    .deleteFrom('supplier_products')
    .where('business_id', '=', businessId)
    .where('supplier_id', '=', supplierId)
    .where('product_id', '=', productId)
    .returning('id')
    .executeTakeFirst()
  return deleted !== undefined
}
