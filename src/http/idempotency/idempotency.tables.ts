import type { ColumnType } from 'kysely'
import type { Stamp } from '../../db/column-types.js'

/** One Idempotency-Key of an organisation: its claim, then the answer replayed to retries. */
export interface IdempotencyKeysTable {
  organization_id: string
  /** A digest of the Idempotency-Key: the key itself is what decrypts the answer, so it is not kept. */
  key_hash: string
  /** Which claim owns the row: a re-claimed (stale or expired) row is not completed by the old claimer. */
  claim_id: string
  /** Caller, method, path and body hash of the first request. */
  fingerprint: string
  /** Null while the first request runs. */
  response_status: number | null
  response_headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>
  /** The answer's body, encrypted (AES-256-GCM) with a key derived from the Idempotency-Key. */
  response_body: string | null
  created_at: Stamp
  expires_at: Stamp
}

declare module '../../db/tables.js' {
  interface Tables {
    'global.idempotency_keys': IdempotencyKeysTable
  }
}
