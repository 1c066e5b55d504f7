import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

/** The products' current stock, as shown with them (the average to 10 places), in one statement. */
export async function updateStockSummaries(
  trx: Transaction<Tables>,
  schema: string,
  stock: readonly { productId: string; onHand: string; averageCost: string }[],
) {
  await sql`
    UPDATE ${sql.table(`${schema}.products`)} p
    SET on_hand = x.on_hand, average_cost = round(x.average_cost, 10), date_modified = now()
    FROM unnest(${sql.val(stock.map((s) => s.productId))}::uuid[], ${sql.val(stock.map((s) => s.onHand))}::numeric[],
      ${sql.val(stock.map((s) => s.averageCost))}::numeric[]) AS x(id, on_hand, average_cost)
    WHERE p.id = x.id`.execute(trx)
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
