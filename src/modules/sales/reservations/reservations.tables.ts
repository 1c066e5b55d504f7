import type { Decimal, DefaultDecimal, Stamp } from '../../../db/column-types.js'

/** What a confirmed order line holds of its product's stock, and the part it is short (backordered). */
export interface StockReservationsTable {
  id: string
  business_id: string
  order_id: string
  order_line_id: string
  product_id: string
  quantity: Decimal
  backordered: DefaultDecimal
  shipped: DefaultDecimal
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    stock_reservations: StockReservationsTable
  }
}
