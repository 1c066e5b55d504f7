import type { ColumnType, Generated } from 'kysely'
import type { Address, Decimal, OptionalJson, Stamp } from '../../../db/column-types.js'

export interface OrdersTable {
  id: string
  business_id: string
  code: string
  customer_id: string
  /** Draft | Confirmed | PartiallyFulfilled | Fulfilled | Cancelled */
  status: Generated<string>
  order_date: ColumnType<Date, Date | string, Date | string>
  currency: string
  delivery_address: OptionalJson<Address>
  notes: string | null
  total: ColumnType<string, number | string | undefined, number | string>
  confirmed_at: Date | null
  fulfilled_at: Date | null
  cancelled_at: Date | null
  date_created: Stamp
  date_modified: Stamp
}

export interface OrderLinesTable {
  id: string
  order_id: string
  line_number: number
  product_id: string | null
  description: string | null
  quantity: Decimal
  unit_price: Decimal
  line_total: ColumnType<string, never, never>
}

declare module '../../../db/tables.js' {
  interface Tables {
    orders: OrdersTable
    order_lines: OrderLinesTable
  }
}
