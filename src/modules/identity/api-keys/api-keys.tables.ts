import type { Stamp } from '../../../db/column-types.js'

export interface ApiKeysTable {
  id: string
  organization_id: string
  business_id: string
  created_by_user_id: string
  label: string | null
  key_hash: Buffer
  key_prefix: string
  scopes: string | null
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.api_keys': ApiKeysTable
  }
}
