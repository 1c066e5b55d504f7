import type { Generated } from 'kysely'
import type { Decimal, OptionalDecimal, Stamp } from '../../../db/column-types.js'

export interface DimensionPresetsTable {
  id: string
  business_id: string
  name: string
  length: Decimal
  width: Decimal
  height: Decimal
  dimension_unit: string
  max_weight: OptionalDecimal
  weight_unit: string
  is_default: Generated<boolean>
  country: string | null
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    dimension_presets: DimensionPresetsTable
  }
}
