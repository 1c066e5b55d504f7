import type { ColumnType } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

export interface OneTimeTokensTable {
  token_hash: Buffer
  user_id: string
  organization_id: string
  business_id: string
  target_app: string
  scopes: ColumnType<Record<string, number> | null, string | null, string | null>
  expires_at: Date
  used_at: Date | null
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.one_time_tokens': OneTimeTokensTable
  }
}
