import type { Generated } from 'kysely'
import type { DefaultDecimal, OptionalDecimal, OptionalWhen, Stamp } from '../../../db/column-types.js'

export interface ProductsTable {
  id: string
  business_id: string
  sku: string
  name: string
  description: string | null
  /** RawMaterial | Component | FinishedGood | Service */
  type: string
  unit_of_measure: string
  barcode: string | null
  unit_cost: OptionalDecimal
  unit_price: OptionalDecimal
  weight: OptionalDecimal
  weight_unit: string | null
  length: OptionalDecimal
  width: OptionalDecimal
  height: OptionalDecimal
  dimension_unit: string | null
  reorder_level: OptionalDecimal
  active: Generated<boolean>
  on_hand: DefaultDecimal
  average_cost: DefaultDecimal
  archived_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    products: ProductsTable
  }
}
