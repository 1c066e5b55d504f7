import type { Stamp } from '../../../db/column-types.js'

export interface EmailTokensTable {
  token_hash: Buffer
  user_id: string
  purpose: string
  organization_id: string | null
  expires_at: Date
  used_at: Date | null
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    'global.email_tokens': EmailTokensTable
  }
}
