import type { ColumnType, Generated } from 'kysely'
import type { OptionalDecimal, OptionalJson, Stamp } from '../../../db/column-types.js'

export interface VehiclesTable {
  id: string
  business_id: string
  registration: string
  name: string
  max_weight: OptionalDecimal
  max_volume: OptionalDecimal
  active: Generated<boolean>
  date_created: Stamp
  date_modified: Stamp
  /** hh:mm in the business's time zone; both or neither. */
  shift_start: string | null
  shift_end: string | null
  start_location: OptionalJson<{ latitude: number; longitude: number }>
  end_location: OptionalJson<{ latitude: number; longitude: number }>
  /** [{ earliest, latest, durationMinutes }] (read with `storedBreaks`). */
  breaks: ColumnType<unknown, string | undefined, string>
}

declare module '../../../db/tables.js' {
  interface Tables {
    vehicles: VehiclesTable
  }
}
