import type { Generated } from 'kysely'
import type { OptionalDecimal, Stamp } from '../../../db/column-types.js'

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
}

declare module '../../../db/tables.js' {
  interface Tables {
    vehicles: VehiclesTable
  }
}
