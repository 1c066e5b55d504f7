import type { ColumnType, Generated } from 'kysely'
import type { Decimal, DefaultDecimal, OptionalWhen, Stamp, When } from '../../../db/column-types.js'

export interface BomsTable {
  id: string
  business_id: string
  product_id: string
  code: string
  name: string
  revision: ColumnType<number, number | undefined, number>
  /** Draft | Active | Archived */
  status: Generated<string>
  output_quantity: Decimal
  notes: string | null
  revised_from_id: string | null
  activated_at: OptionalWhen
  archived_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

export interface BomLinesTable {
  id: string
  bom_id: string
  line_number: number
  product_id: string
  quantity: Decimal
  scrap_percent: DefaultDecimal
  notes: string | null
}

export interface BomActivationsTable {
  product_id: string
  bom_id: string
  active_from: When
  active_to: OptionalWhen
}

declare module '../../../db/tables.js' {
  interface Tables {
    boms: BomsTable
    bom_lines: BomLinesTable
    bom_activations: BomActivationsTable
  }
}
