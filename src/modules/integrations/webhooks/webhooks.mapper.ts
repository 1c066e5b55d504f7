import type { AttemptRow, EventRow } from './deliveries.repository.js'
import type { WebhookAttemptResponse, WebhookEventResponse } from './webhooks.schemas.js'

export function toAttempt(row: AttemptRow): WebhookAttemptResponse {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    deliveryId: row.delivery_id,
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: row.attempt,
    outcome: row.outcome as WebhookAttemptResponse['outcome'],
    responseStatus: row.response_status,
    latencyMs: row.latency_ms,
    responseBody: row.response_body,
    error: row.error,
    dateCreated: row.date_created.toISOString(),
  }
}

export function toEvent(row: EventRow): WebhookEventResponse {
  return {
    id: row.id,
    type: row.type,
    resource: row.resource_key,
    data: row.payload,
    deliveries: row.deliveries.map((d) => ({
      ...d,
      status: d.status as WebhookEventResponse['deliveries'][number]['status'],
      nextAttemptAt: new Date(d.nextAttemptAt).toISOString(),
    })),
    dateCreated: row.date_created.toISOString(),
  }
}
