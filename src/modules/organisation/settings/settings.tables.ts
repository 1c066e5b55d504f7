import type { Stamp } from '../../../db/column-types.js'

export interface SettingsTable {
  business_id: string
  key: string
  value: string
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    settings: SettingsTable
  }
}
