import type { Generated } from 'kysely'
import type { Decimal, OptionalDecimal, OptionalWhen, Stamp } from '../../../db/column-types.js'

export interface WorkOrdersTable {
  id: string
  business_id: string
  code: string
  bom_id: string
  product_id: string
  quantity: Decimal
  /** Draft | Released | InProgress | Completed | Cancelled */
  status: Generated<string>
  planned_start: OptionalWhen
  planned_end: OptionalWhen
  notes: string | null
  standard_unit_cost: OptionalDecimal
  standard_total_cost: OptionalDecimal
  actual_unit_cost: OptionalDecimal
  actual_total_cost: OptionalDecimal
  quantity_produced: OptionalDecimal
  effective_date: OptionalWhen
  released_at: OptionalWhen
  started_at: OptionalWhen
  completed_at: OptionalWhen
  cancelled_at: OptionalWhen
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    work_orders: WorkOrdersTable
  }
}
