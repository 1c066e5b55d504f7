import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

/**
 * The reads purchase orders build on (exported by the purchasing area's index): a live supplier
 * of the business, its terms for some products, and the preferred supplier of products. Lead times
 * are the effective ones: the terms' own, else the supplier's.
 */

/** A live supplier of the business as purchase orders need it. */
export interface PurchasingSupplier {
  id: string
  code: string
  name: string
  currency: string
  paymentTerms: string
  leadTimeDays: number
  isActive: boolean
}

/**
 * A live (not deleted) supplier of the business, or undefined. Inside a transaction, `lock: 'share'`
 * keeps it from being deleted or changed until commit (two readers do not block each other).
 */
export async function findPurchasingSupplier(
  db: Executor | Transaction<Tables>,
  schemaName: string,
  businessId: string,
  supplierId: string,
  lock?: 'share',
): Promise<PurchasingSupplier | undefined> {
  const query = db
    .withSchema(schemaName)
    .selectFrom('suppliers')
    .select(['id', 'code', 'name', 'currency', 'payment_terms', 'lead_time_days', 'is_active'])
    .where('id', '=', supplierId)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
  const row = await (lock === 'share' ? query.forShare() : query).executeTakeFirst()
  return (
    row && {
      id: row.id,
      code: row.code,
      name: row.name,
      currency: row.currency,
      paymentTerms: row.payment_terms,
      leadTimeDays: row.lead_time_days,
      isActive: row.is_active,
    }
  )
}

/** Names and codes of suppliers of the business by id, deleted ones included (history resolves them). */
export async function supplierNames(
  db: Executor,
  schemaName: string,
  businessId: string,
  supplierIds: readonly string[],
): Promise<Map<string, { code: string; name: string; deleted: boolean }>> {
  if (supplierIds.length === 0) return new Map()
  const rows = await db
    .withSchema(schemaName)
    .selectFrom('suppliers')
    .select(['id', 'code', 'name', 'deleted_at'])
    .where('business_id', '=', businessId)
    .where('id', 'in', supplierIds)
    .execute()
  return new Map(
    rows.map((row) => [row.id, { code: row.code, name: row.name, deleted: row.deleted_at !== null }]),
  )
}

/** A supplier's terms for a product, with the effective lead time. */
export interface SupplierTerms {
  supplierId: string
  productId: string
  supplierSku: string | null
  /** numeric text, in the supplier's currency, up to 6 decimals */
  unitCost: string
  /** numeric text; 0 = no minimum */
  minimumOrderQuantity: string
  /** the terms' lead time, else the supplier's */
  leadTimeDays: number
  isPreferred: boolean
}

const termColumns = [
  'sp.supplier_id',
  'sp.product_id',
  'sp.supplier_sku',
  'sp.unit_cost',
  'sp.minimum_order_quantity',
  'sp.is_preferred',
  sql<number>`coalesce(sp.lead_time_days, s.lead_time_days)`.as('effective_lead_time_days'),
] as const

type TermsRow = {
  supplier_id: string
  product_id: string
  supplier_sku: string | null
  unit_cost: string
  minimum_order_quantity: string
  is_preferred: boolean
  effective_lead_time_days: number
}

const toTerms = (row: TermsRow): SupplierTerms => ({
  supplierId: row.supplier_id,
  productId: row.product_id,
  supplierSku: row.supplier_sku,
  unitCost: row.unit_cost,
  minimumOrderQuantity: row.minimum_order_quantity,
  leadTimeDays: row.effective_lead_time_days,
  isPreferred: row.is_preferred,
})

/** The live supplier's terms for the given products, keyed by product id (products without terms are absent). */
export async function termsForProducts(
  db: Executor,
  schemaName: string,
  businessId: string,
  supplierId: string,
  productIds: readonly string[],
): Promise<Map<string, SupplierTerms>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .withSchema(schemaName)
    .selectFrom('supplier_products as sp')
    .innerJoin('suppliers as s', 's.id', 'sp.supplier_id')
    .select(termColumns)
    .where('sp.business_id', '=', businessId)
    .where('sp.supplier_id', '=', supplierId)
    .where('s.deleted_at', 'is', null)
    .where('sp.product_id', 'in', productIds)
    .execute()
  return new Map(rows.map((row) => [row.product_id, toTerms(row)]))
}

/** The preferred supplier's terms (with its name) for each product that has one, keyed by product id. */
export async function preferredSuppliers(
  db: Executor,
  schemaName: string,
  businessId: string,
  productIds: readonly string[],
): Promise<Map<string, SupplierTerms & { supplierName: string }>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .withSchema(schemaName)
    .selectFrom('supplier_products as sp')
    .innerJoin('suppliers as s', 's.id', 'sp.supplier_id')
    .select(termColumns)
    .select('s.name as supplier_name')
    .where('sp.business_id', '=', businessId)
    .where('sp.is_preferred', '=', true)
    .where('s.deleted_at', 'is', null)
    .where('sp.product_id', 'in', productIds)
    .execute()
  return new Map(rows.map((row) => [row.product_id, { ...toTerms(row), supplierName: row.supplier_name }]))
}
