import type { ColumnType } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

export interface RolesTable {
  id: string
  organization_id: string
  name: string
  description: string | null
  permissions: ColumnType<Record<string, number>, string, string>
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.roles': RolesTable
  }
}
