import type { Generated } from 'kysely'
import type { Decimal, DefaultDecimal, OptionalWhen, Stamp, When } from '../../../db/column-types.js'

export interface ReturnsTable {
  id: string
  business_id: string
  /** RMA-000001, per business */
  number: string
  /** Requested | Received | WrittenOff | Cancelled */
  status: Generated<string>
  order_id: string | null
  shipment_id: string | null
  customer_id: string | null
  reason: string
  notes: string | null
  /** the credit: the lines' quantity × unit price */
  value: DefaultDecimal
  /** the ledger date the goods came back */
  received_at: OptionalWhen
  written_off_at: OptionalWhen
  cancelled_at: OptionalWhen
  created_by_user_id: string | null
  date_created: Stamp
  date_modified: Stamp
}

/** One shipment line's part of a return. */
export interface ReturnLinesTable {
  id: string
  business_id: string
  return_id: string
  line_number: number
  shipment_line_id: string
  order_line_id: string | null
  product_id: string
  quantity: Decimal
  unit_price: DefaultDecimal
  /** the exact cost the shipment line left stock with */
  unit_cost: Decimal
  value: Decimal
  /** when the shipment line left stock (its Sale entry's date) */
  left_at: When
  reason: string | null
  /** the SaleReturn entry, once received */
  ledger_entry_id: string | null
}

declare module '../../../db/tables.js' {
  interface Tables {
    returns: ReturnsTable
    return_lines: ReturnLinesTable
  }
}
