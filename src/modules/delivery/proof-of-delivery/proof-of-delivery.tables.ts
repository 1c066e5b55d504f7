import type { ColumnType } from 'kysely'
import type { OptionalDecimal, Stamp } from '../../../db/column-types.js'

export interface StopOperationsTable {
  id: string
  business_id: string
  shipment_id: string
  delivery_plan_id: string | null
  /** Arrived | Delivered | Failed */
  kind: string
  occurred_at: ColumnType<Date, Date | string, Date | string>
  latitude: OptionalDecimal
  longitude: OptionalDecimal
  recipient_name: string | null
  signature_file_id: string | null
  photo_file_ids: ColumnType<string[], string[] | undefined, string[]>
  note: string | null
  reason: string | null
  /** Replan | ReturnToStock | null (the business setting decides) */
  after_failure: string | null
  /** Replanned | Returned, once the plan completed */
  resolution: string | null
  recorded_by_user_id: string | null
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    stop_operations: StopOperationsTable
  }
}
