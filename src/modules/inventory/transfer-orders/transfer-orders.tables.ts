import type { Generated } from 'kysely'
import type {
  Decimal,
  DefaultDecimal,
  OptionalDecimal,
  OptionalWhen,
  Stamp,
  When,
} from '../../../db/column-types.js'

export interface TransferOrdersTable {
  id: string
  /** TO-000001, per source business */
  number: string
  source_business_id: string
  destination_business_id: string
  /** Draft | Shipped | PartiallyReceived | Received | Cancelled */
  status: Generated<string>
  notes: string | null
  /** the ledger date of the shipment out of the source */
  shipped_at: OptionalWhen
  /** the ledger date of the receipt that completed it */
  received_at: OptionalWhen
  cancelled_at: OptionalWhen
  shipment_id: string | null
  created_by_user_id: string | null
  date_created: Stamp
  date_modified: Stamp
}

export interface TransferOrderLinesTable {
  id: string
  transfer_order_id: string
  line_number: number
  source_product_id: string
  destination_product_id: string
  quantity: Decimal
  /** exact moving-average cost the line left with; null until shipped */
  unit_cost: OptionalDecimal
  quantity_received: DefaultDecimal
}

export interface TransferOrderReceiptsTable {
  id: string
  transfer_order_id: string
  effective_date: When
  created_by_user_id: string | null
  date_created: Stamp
}

export interface TransferOrderReceiptLinesTable {
  receipt_id: string
  line_id: string
  quantity: Decimal
}

declare module '../../../db/tables.js' {
  interface Tables {
    transfer_orders: TransferOrdersTable
    transfer_order_lines: TransferOrderLinesTable
    transfer_order_receipts: TransferOrderReceiptsTable
    transfer_order_receipt_lines: TransferOrderReceiptLinesTable
  }
}
