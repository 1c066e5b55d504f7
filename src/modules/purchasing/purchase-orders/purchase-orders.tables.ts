import type { ColumnType, Generated } from 'kysely'
import type { Decimal, DefaultDecimal, OptionalWhen, Stamp, When } from '../../../db/column-types.js'

/** A calendar day (`date`), read and written as yyyy-mm-dd. */
type OptionalDay = ColumnType<string | null, string | null | undefined, string | null>

export interface PurchaseOrdersTable {
  id: string
  business_id: string
  /** PO-000001, per business */
  number: string
  supplier_id: string
  /** Draft | Submitted | PartiallyReceived | Received | Closed | Cancelled */
  status: Generated<string>
  currency: string
  expected_date: OptionalDay
  notes: string | null
  /** sum of the line totals, kept in SQL */
  total: DefaultDecimal
  submitted_at: OptionalWhen
  received_at: OptionalWhen
  closed_at: OptionalWhen
  cancelled_at: OptionalWhen
  overdue_notified_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

export interface PurchaseOrderLinesTable {
  id: string
  business_id: string
  purchase_order_id: string
  line_number: number
  product_id: string
  quantity: Decimal
  unit_cost: Decimal
  line_total: ColumnType<string, never, never>
  received_quantity: DefaultDecimal
  date_modified: Stamp
}

export interface PurchaseOrderReceiptsTable {
  id: string
  business_id: string
  purchase_order_id: string
  effective_date: When
  notes: string | null
  created_by_user_id: string | null
  reversed_at: OptionalWhen
  reversal_effective_date: OptionalWhen
  reversed_by_user_id: string | null
  date_created: Stamp
  date_modified: Stamp
}

export interface PurchaseOrderReceiptLinesTable {
  id: string
  receipt_id: string
  purchase_order_line_id: string
  product_id: string
  quantity: Decimal
  unit_cost: Decimal
  ledger_entry_id: string
  reversal_entry_id: string | null
}

declare module '../../../db/tables.js' {
  interface Tables {
    purchase_orders: PurchaseOrdersTable
    purchase_order_lines: PurchaseOrderLinesTable
    purchase_order_receipts: PurchaseOrderReceiptsTable
    purchase_order_receipt_lines: PurchaseOrderReceiptLinesTable
  }
}
