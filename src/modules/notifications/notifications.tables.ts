import type { ColumnType, Generated } from 'kysely'
import type { Stamp } from '../../db/column-types.js'

export interface NotificationsTable {
  id: string
  seq: ColumnType<number, never, never>
  business_id: string
  user_id: string
  title: string
  message: string
  read: Generated<boolean>
  priority: Generated<string>
  type: Generated<string>
  level: Generated<string>
  action_link: string | null
  entity_type: Generated<string>
  entity_id: string | null
  date_created: Stamp
  date_modified: Stamp
}

declare module '../../db/tables.js' {
  interface Tables {
    notifications: NotificationsTable
  }
}
