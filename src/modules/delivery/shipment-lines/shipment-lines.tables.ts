import type { Decimal, OptionalDecimal, Stamp } from '../../../db/column-types.js'

/** What a shipment carries; issued from stock when its plan is dispatched. */
export interface ShipmentLinesTable {
  id: string
  business_id: string
  shipment_id: string
  line_number: number
  order_line_id: string | null
  product_id: string
  quantity: Decimal
  package: string | null
  /** the exact moving-average cost it left stock with; null until dispatched */
  unit_cost: OptionalDecimal
  ledger_entry_id: string | null
  /** the entry that put it back (a shipment cancelled after dispatch) */
  returned_entry_id: string | null
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    shipment_lines: ShipmentLinesTable
  }
}
