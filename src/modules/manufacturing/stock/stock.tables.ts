import type { Generated } from 'kysely'
import type { Decimal, DefaultDecimal, OptionalDecimal, Stamp, When } from '../../../db/column-types.js'

export interface StockLedgerTable {
  id: string
  seq: Generated<number>
  business_id: string
  product_id: string
  /** Receipt | Issue | Adjustment | WorkOrderIssue | WorkOrderReceipt */
  type: string
  quantity: Decimal
  received_cost: OptionalDecimal
  unit_cost: DefaultDecimal
  effective_date: When
  reason: string | null
  reference: string | null
  work_order_id: string | null
  balance: DefaultDecimal
  average_cost: DefaultDecimal
  created_by_user_id: string | null
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    stock_ledger: StockLedgerTable
  }
}
