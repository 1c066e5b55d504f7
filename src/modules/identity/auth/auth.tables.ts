import type { ColumnType } from 'kysely'
import type { Stamp } from '../../../db/column-types.js'

export interface SessionsTable {
  id: string
  user_id: string
  organization_id: string
  business_id: string | null
  scopes: ColumnType<Record<string, number> | null, string | null, string | null>
  expires_at: Date
  revoked_at: Date | null
  revoked_reason: string | null
  date_created: Stamp
}

export interface RefreshTokensTable {
  token_hash: Buffer
  session_id: string
  expires_at: Date
  used_at: Date | null
  date_created: Stamp
}

export interface UsedSelectionTokensTable {
  jti: string
  expires_at: Date
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.sessions': SessionsTable
    'global.refresh_tokens': RefreshTokensTable
    'global.used_selection_tokens': UsedSelectionTokensTable
  }
}
