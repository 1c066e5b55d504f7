import type { Generated } from 'kysely'
import type { Decimal, OptionalDecimal, Stamp, When } from '../../../db/column-types.js'

/** One movement; never rewritten (the running values live in stock_checkpoints). */
export interface StockLedgerTable {
  id: string
  seq: Generated<number>
  business_id: string
  product_id: string
  /** one of ENTRY_TYPES (stock.schemas.ts) */
  type: string
  quantity: Decimal
  received_cost: OptionalDecimal
  effective_date: When
  reason: string | null
  reference: string | null
  work_order_id: string | null
  created_by_user_id: string | null
  date_created: Stamp
}

/** The running values after every 64th ledger entry of a product and after its last (head; see stock_revalue). */
export interface StockCheckpointsTable {
  product_id: string
  effective_date: When
  seq: number
  balance: Decimal
  stock_value: Decimal
  average_cost: Decimal
  /** the lowest balance after any entry since the checkpoint before */
  min_balance: Decimal
  head: Generated<boolean>
}

declare module '../../../db/tables.js' {
  interface Tables {
    stock_ledger: StockLedgerTable
    stock_checkpoints: StockCheckpointsTable
  }
}
