import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const WebhookEndpointDisabledPayload = Type.Object(
  { endpointId: Uuid(), url: Type.String(), reason: Type.String() },
  { title: 'WebhookEndpointDisabledPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    WebhookEndpointDisabled: Static<typeof WebhookEndpointDisabledPayload>
  }
}

export const webhookEvents = defineEvents({
  WebhookEndpointDisabled: {
    payload: WebhookEndpointDisabledPayload,
    description: 'A webhook endpoint was disabled after repeated failed deliveries.',
    notification: {
      content: ({ payload }) => ({
        title: 'Webhook endpoint disabled',
        message: `Webhooks to ${payload.url} stopped after repeated failures (${payload.reason}). Fix the receiver, then enable the endpoint again.`,
        level: 'Error',
        priority: 'High',
        entityType: 'IntegrationProvider',
        entityId: payload.endpointId,
        actionLink: `/api/v1/webhooks/endpoints/${payload.endpointId}`,
      }),
    },
  },
})
