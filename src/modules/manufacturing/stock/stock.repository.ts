import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

/** The product's current stock, as shown with it (the average to 10 places). */
export async function updateStockSummary(
  trx: Transaction<Tables>,
  schema: string,
  productId: string,
  onHand: string,
  averageCost: string,
) {
  await trx
    .withSchema(schema)
    .updateTable('products')
    .set({
      on_hand: onHand,
      average_cost: sql<string>`round(${averageCost}::numeric, 10)`,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', productId)
    .execute()
}

/**
 * Ledger entries of one product (already known to be the business's), for the SL list; their
 * running values come from ledger.repository's entryValues.
 */
export function scopedLedger(db: Executor, schema: string, businessId: string, productId: string) {
  return db
    .withSchema(schema)
    .selectFrom('stock_ledger as l')
    .where('l.product_id', '=', productId)
    .where('l.business_id', '=', businessId)
    .select([
      'l.id',
      'l.seq',
      'l.product_id',
      'l.type',
      'l.quantity',
      'l.effective_date',
      'l.reason',
      'l.reference',
      'l.work_order_id',
      'l.created_by_user_id',
      'l.date_created',
    ])
}

export type LedgerRow = Awaited<ReturnType<ReturnType<typeof scopedLedger>['execute']>>[number]

export async function findEntry(
  db: Executor,
  schema: string,
  businessId: string,
  productId: string,
  id: string,
) {
  return scopedLedger(db, schema, businessId, productId).where('l.id', '=', id).executeTakeFirstOrThrow()
}
