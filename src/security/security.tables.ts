import type { ColumnType, Generated } from 'kysely'
import type { Stamp } from '../db/column-types.js'

export interface InstanceSecretsTable {
  name: string
  value: Buffer
  date_created: Stamp
}

export interface SigningKeysTable {
  kid: string
  algorithm: string
  /** Public halves only: a private key never reaches the database. */
  public_jwk: ColumnType<Record<string, unknown>, string, string>
  active: Generated<boolean>
  date_created: Stamp
  /** Replaced (rotation) or exposed (stored by an earlier version): verifies old tokens until they expire. */
  retired_at: Date | null
}

export interface RateLimitsTable {
  key: string
  window_start: Date
  hits: number
}

declare module '../db/tables.js' {
  interface Tables {
    'global.instance_secrets': InstanceSecretsTable
    'global.signing_keys': SigningKeysTable
    'global.rate_limits': RateLimitsTable
  }
}
