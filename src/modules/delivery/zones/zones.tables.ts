import type { ColumnType, Generated } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

export interface DeliveryZonesTable {
  id: string
  business_id: string
  name: string
  colour: string | null
  active: Generated<boolean>
  /** The geometry in the binary form of shape.ts. */
  geometry: ColumnType<Buffer, Buffer, Buffer>
  /** MD5 of the geometry's bytes (hex), written with it: the audit log records the geometry by it. */
  geometry_digest: string
  min_longitude: number
  min_latitude: number
  max_longitude: number
  max_latitude: number
  /** Bumped by every update: the key of a process's prepared copy of the geometry. */
  revision: Generated<number>
  /** Positions in the geometry (null: saved before it was counted). */
  positions: number | null
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    delivery_zones: DeliveryZonesTable
  }
}
