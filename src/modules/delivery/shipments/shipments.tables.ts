import type { ColumnType, Generated } from 'kysely'
import type {
  Address,
  OptionalDecimal,
  OptionalJson,
  OptionalStamp,
  Stamp,
} from '../../../db/column-types.js'

export interface ShipmentsTable {
  id: string
  business_id: string
  code: string
  order_id: string | null
  customer_id: string | null
  /** Pending | Assigned | InTransit | Delivered | Failed | Returned | Cancelled */
  status: Generated<string>
  pickup_address: OptionalJson<Address>
  delivery_address: OptionalJson<Address>
  weight: OptionalDecimal
  fulfillment_cost: ColumnType<string, number | string | undefined, number | string>
  scheduled_date: Date | null
  delivered_at: Date | null
  dimension_preset_id: string | null
  volume: OptionalDecimal
  /** Set by Cartage where the client gave no weight / volume: they follow the lines and the preset. */
  weight_derived: Generated<boolean>
  volume_derived: Generated<boolean>
  notes: string | null
  delivery_plan_id: string | null
  stop_sequence: number | null
  assigned_at: Date | null
  dispatched_at: Date | null
  failed_at: Date | null
  returned_at: Date | null
  cancelled_at: Date | null
  fail_reason: string | null
  proof: OptionalJson<Record<string, unknown>>
  /** [{ start, end }] as ISO instants, sorted, not overlapping (read with `storedWindows`). */
  delivery_windows: ColumnType<unknown, string | undefined, string>
  service_minutes: OptionalDecimal
  planned_arrival: OptionalStamp
  planned_departure: OptionalStamp
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    shipments: ShipmentsTable
  }
}
