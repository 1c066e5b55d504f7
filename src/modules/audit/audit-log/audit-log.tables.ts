import type { ColumnType, Generated } from 'kysely'
import type { OptionalJson, Stamp } from '../../../db/column-types.js'

/** One change of one row, written by the audit trigger in the transaction of the change. */
export interface AuditLogTable {
  id: Generated<string>
  /** The order entries were written in, among entries of one instant. */
  seq: Generated<number>
  occurred_at: Stamp
  /** The business the row belongs to; null for organisation-wide rows (roles, members). */
  business_id: string | null
  /** User, ApiKey or System. */
  actor_type: string
  actor_id: string | null
  entity_type: string
  entity_id: string | null
  /** Created, Updated, StatusChanged or Deleted; for a domain event, its type. */
  action: string
  /** {column: {before, after}}: only what changed, never secrets; {} for a domain event. */
  changes: ColumnType<Record<string, { before: unknown; after: unknown }>, string, string>
  /** A domain event's payload; null for a row change. */
  payload: OptionalJson<Record<string, unknown>>
  request_id: string | null
}

/**
 * On main: the entries of role, membership and API key changes of organisations on other clusters,
 * until they are copied into the organisation's audit_log (audit-log.forward.ts).
 */
export interface AuditLogOutboxTable {
  id: Generated<string>
  schema_name: string
  occurred_at: Stamp
  business_id: string | null
  actor_type: string
  actor_id: string | null
  entity_type: string
  entity_id: string | null
  action: string
  changes: ColumnType<Record<string, { before: unknown; after: unknown }>, string, string>
  request_id: string | null
}

declare module '../../../db/tables.js' {
  interface Tables {
    audit_log: AuditLogTable
    'global.audit_log_outbox': AuditLogOutboxTable
  }
}
