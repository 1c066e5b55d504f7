import { type Insertable, sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import type { ProductsTable } from './products.tables.js'

const COLUMNS = [
  'p.id',
  'p.business_id',
  'p.sku',
  'p.name',
  'p.description',
  'p.type',
  'p.unit_of_measure',
  'p.barcode',
  'p.unit_cost',
  'p.unit_price',
  'p.weight',
  'p.weight_unit',
  'p.length',
  'p.width',
  'p.height',
  'p.dimension_unit',
  'p.reorder_level',
  'p.active',
  'p.on_hand',
  'p.average_cost',
  'p.archived_at',
  'p.date_created',
  'p.date_modified',
] as const

export function scopedProducts(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('products as p')
    .where('p.business_id', '=', businessId)
    .select(COLUMNS)
}

export type ProductRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>

export async function findProduct(db: Executor, schema: string, businessId: string, productId: string) {
  return scopedProducts(db, schema, businessId).where('p.id', '=', productId).executeTakeFirst()
}

/** Locks the product row until commit: every stock movement of the product waits for it. */
export async function lockProduct(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  productId: string,
) {
  return scopedProducts(trx, schema, businessId).where('p.id', '=', productId).forUpdate().executeTakeFirst()
}

/** Locks several products in id order (a fixed order, so two work orders never deadlock). */
export async function lockProducts(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  productIds: readonly string[],
) {
  if (productIds.length === 0) return []
  return scopedProducts(trx, schema, businessId)
    .where('p.id', 'in', productIds)
    .orderBy('p.id')
    .forUpdate()
    .execute()
}

export type ProductValues = Omit<
  Insertable<ProductsTable>,
  | 'id'
  | 'business_id'
  | 'on_hand'
  | 'average_cost'
  | 'date_created'
  | 'date_modified'
  | 'active'
  | 'archived_at'
> & { active: boolean; archived_at: Date | null }

export async function insertProduct(
  db: Executor,
  schema: string,
  values: ProductValues & { id: string; business_id: string },
) {
  await db.withSchema(schema).insertInto('products').values(values).execute()
}

export async function updateProduct(
  db: Executor,
  schema: string,
  productId: string,
  values: Partial<ProductValues>,
) {
  await db
    .withSchema(schema)
    .updateTable('products')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', productId)
    .execute()
}

export async function hasLedger(db: Executor, schema: string, productId: string): Promise<boolean> {
  const row = await db
    .withSchema(schema)
    .selectFrom('stock_ledger')
    .select('id')
    .where('product_id', '=', productId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
