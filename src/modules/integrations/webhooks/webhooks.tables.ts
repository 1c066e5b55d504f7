import type { ColumnType, Generated } from 'kysely'
import type { OptionalStamp, Stamp } from '../../../db/column-types.js'

export interface WebhookEndpointsTable {
  id: string
  business_id: string
  url: string
  description: string | null
  event_types: ColumnType<string[], string[], string[]>
  enabled: Generated<boolean>
  /** Encrypted (AES-256-GCM, webhook-secrets.ts); shown only by the create and rotate answers. */
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: OptionalStamp
  consecutive_failures: Generated<number>
  disabled_reason: string | null
  date_created: Stamp
  date_modified: Stamp
}

export interface WebhookEventsTable {
  id: string
  business_id: string
  seq: Generated<number>
  type: string
  resource_key: string
  payload: ColumnType<Record<string, unknown>, string, string>
  date_created: Stamp
}

export interface WebhookDeliveriesTable {
  id: string
  business_id: string
  event_id: string
  endpoint_id: string
  event_seq: number
  resource_key: string
  status: Generated<string>
  attempts: Generated<number>
  next_attempt_at: Stamp
  locked_until: OptionalStamp
  lease_token: string | null
  date_created: Stamp
  date_modified: Stamp
}

export interface WebhookAttemptsTable {
  id: string
  business_id: string
  endpoint_id: string
  delivery_id: string | null
  event_id: string | null
  event_type: string
  attempt: number
  outcome: string
  response_status: number | null
  latency_ms: number
  response_body: string | null
  error: string | null
  date_created: Stamp
}

export interface WebhookSchemasTable {
  schema_name: string
  date_created: Stamp
}

declare module '../../../db/tables.js' {
  interface Tables {
    webhook_endpoints: WebhookEndpointsTable
    webhook_events: WebhookEventsTable
    webhook_deliveries: WebhookDeliveriesTable
    webhook_attempts: WebhookAttemptsTable
    'global.webhook_schemas': WebhookSchemasTable
  }
}
