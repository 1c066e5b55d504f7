import { sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'

/** One received line as the receipt's `lines` JSON carries it. */
export interface ReceiptLineJson {
  id: string
  lineId: string
  productId: string
  quantity: number
  unitCost: number
  ledgerEntryId: string
  reversalEntryId: string | null
}

/** The receipts of one purchase order (already known to be the business's), each with its lines, in one statement. */
export function scopedReceipts(db: Executor, schema: string, businessId: string, purchaseOrderId: string) {
  return db
    .withSchema(schema)
    .selectFrom('purchase_order_receipts as r')
    .innerJoin('purchase_orders as po', 'po.id', 'r.purchase_order_id')
    .where('r.business_id', '=', businessId)
    .where('r.purchase_order_id', '=', purchaseOrderId)
    .select([
      'r.id',
      'r.purchase_order_id',
      'po.number',
      'po.status',
      'r.effective_date',
      'r.notes',
      'r.reversed_at',
      'r.reversal_effective_date',
      'r.date_created',
      sql<ReceiptLineJson[]>`(
        SELECT coalesce(json_agg(json_build_object('id', rl.id, 'lineId', rl.purchase_order_line_id,
          'productId', rl.product_id, 'quantity', rl.quantity, 'unitCost', rl.unit_cost,
          'ledgerEntryId', rl.ledger_entry_id, 'reversalEntryId', rl.reversal_entry_id) ORDER BY l.line_number), '[]')
        FROM ${sql.table(`${schema}.purchase_order_receipt_lines`)} rl
        JOIN ${sql.table(`${schema}.purchase_order_lines`)} l ON l.id = rl.purchase_order_line_id
        WHERE rl.receipt_id = r.id)`.as('lines'),
    ])
}

export type ReceiptRow = NonNullable<Awaited<ReturnType<typeof findReceipt>>>

export async function findReceipt(
  db: Executor,
  schema: string,
  businessId: string,
  purchaseOrderId: string,
  receiptId: string,
) {
  return scopedReceipts(db, schema, businessId, purchaseOrderId)
    .where('r.id', '=', receiptId)
    .executeTakeFirst()
}

export async function insertReceipt(
  trx: Transaction<Tables>,
  schema: string,
  receipt: {
    id: string
    business_id: string
    purchase_order_id: string
    effective_date: Date
    notes: string | null
    created_by_user_id: string | null
  },
) {
  await trx.withSchema(schema).insertInto('purchase_order_receipts').values(receipt).execute()
}

export async function insertReceiptLines(
  trx: Transaction<Tables>,
  schema: string,
  lines: readonly {
    id: string
    receipt_id: string
    purchase_order_line_id: string
    product_id: string
    quantity: number
    unit_cost: string
    ledger_entry_id: string
  }[],
) {
  await trx.withSchema(schema).insertInto('purchase_order_receipt_lines').values(lines).execute()
}

/** Locks a receipt of the (locked) purchase order until commit, with its lines. */
export async function lockReceipt(
  trx: Transaction<Tables>,
  schema: string,
  purchaseOrderId: string,
  receiptId: string,
) {
  const receipt = await trx
    .withSchema(schema)
    .selectFrom('purchase_order_receipts')
    .select(['id', 'effective_date', 'reversed_at'])
    .where('id', '=', receiptId)
    .where('purchase_order_id', '=', purchaseOrderId)
    .forUpdate()
    .executeTakeFirst()
  if (!receipt) return undefined
  // In the order of the receipt's `lines` as shown, so a reason's lines.<n> names the same line.
  const lines = await trx
    .withSchema(schema)
    .selectFrom('purchase_order_receipt_lines as rl')
    .innerJoin('purchase_order_lines as l', 'l.id', 'rl.purchase_order_line_id')
    .select(['rl.id', 'rl.purchase_order_line_id', 'rl.product_id', 'rl.quantity'])
    .where('rl.receipt_id', '=', receiptId)
    .orderBy('l.line_number')
    .execute()
  return { ...receipt, lines }
}

/** Links each reversed receipt line to the ledger entry that reversed it, in one statement. */
export async function setReversalEntries(
  trx: Transaction<Tables>,
  schema: string,
  links: readonly { lineId: string; entryId: string }[],
) {
  await sql`
    UPDATE ${sql.table(`${schema}.purchase_order_receipt_lines`)} rl SET reversal_entry_id = x.entry_id
    FROM unnest(${sql.val(links.map((l) => l.lineId))}::uuid[], ${sql.val(links.map((l) => l.entryId))}::uuid[])
      AS x(id, entry_id)
    WHERE rl.id = x.id`.execute(trx)
}

export async function markReversed(
  trx: Transaction<Tables>,
  schema: string,
  receiptId: string,
  effectiveDate: Date,
  userId: string | null,
) {
  await trx
    .withSchema(schema)
    .updateTable('purchase_order_receipts')
    .set({
      reversed_at: appliedAt(),
      reversal_effective_date: effectiveDate,
      reversed_by_user_id: userId,
      date_modified: appliedAt(),
    })
    .where('id', '=', receiptId)
    .execute()
}
