import type { ColumnType, Generated } from 'kysely'
import type { OptionalDecimal, OptionalJson, OptionalStamp, Stamp } from '../../../db/column-types.js'

export interface DeliveryPlansTable {
  id: string
  business_id: string
  code: string
  name: string | null
  /** Draft | Scheduled | Dispatched | Completed | Cancelled */
  status: Generated<string>
  scheduled_date: ColumnType<string, string, string>
  vehicle_id: string | null
  driver_name: string | null
  carrier_id: number | null
  delivery_zone_ids: ColumnType<string[], string[] | undefined, string[]>
  depot: OptionalJson<Record<string, unknown>>
  distance_km: OptionalDecimal
  notes: string | null
  scheduled_at: OptionalStamp
  dispatched_at: OptionalStamp
  completed_at: OptionalStamp
  cancelled_at: OptionalStamp
  autobatched_at: OptionalStamp
  date_created: Stamp
  date_modified: Stamp
}

export interface DispatchCodesTable {
  business_id: string
  code: string
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    delivery_plans: DeliveryPlansTable
    dispatch_codes: DispatchCodesTable
  }
}
