import type { ColumnType } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

export interface ActivityTracesTable {
  id: string
  business_id: string
  customer_id: string
  order_id: string | null
  type: string
  note: string | null
  /** User | System */
  source: string
  created_by_user_id: string | null
  occurred_at: ColumnType<Date, Date | string, Date | string>
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    activity_traces: ActivityTracesTable
  }
}
