import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const ATTEMPT_OUTCOMES = ['Succeeded', 'Failed', 'Refused'] as const
export const DELIVERY_STATUSES = ['Pending', 'Delivered', 'Failed'] as const

const EventTypes = Type.Array(Type.String({ maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description: 'the event types the endpoint receives (GET /api/v1/webhooks/event-types)',
})

export const WebhookEndpointRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'https URL (http only to a loopback host when WEBHOOKS_ALLOW_PRIVATE_TARGETS is on); private, loopback and link-local addresses are refused (unless allowed), reserved, multicast and unspecified ones always, and an IPv6 address carrying an IPv4 address (IPv4-mapped or -compatible, 6to4, NAT64, Teredo) is judged by it too',
    }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    eventTypes: EventTypes,
    enabled: Type.Optional(
      Type.Boolean({ default: true, description: 'true again clears the failures that disabled it' }),
    ),
  },
  { title: 'WebhookEndpointRequest' },
)
export type WebhookEndpointRequest = Static<typeof WebhookEndpointRequest>

export const WebhookEndpointParams = Type.Object({ endpointId: Uuid() })
export const WebhookEventParams = Type.Object({ eventId: Uuid() })

const endpointFields = {
  id: Uuid(),
  businessId: Uuid(),
  url: Type.String(),
  description: Nullable(Type.String()),
  eventTypes: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Nullable(
    Type.String({ description: 'why delivery disabled the endpoint, until it is enabled again' }),
  ),
  consecutiveFailures: Type.Integer({ description: 'failed attempts since the last success' }),
  previousSecretExpiresAt: Nullable(
    DateTime({ description: 'after a rotation: until when the previous secret also signs' }),
  ),
  dateCreated: DateTime(),
  dateModified: DateTime(),
}

export const WebhookEndpointResponse = Type.Object(endpointFields, { title: 'WebhookEndpointResponse' })
export type WebhookEndpointResponse = Static<typeof WebhookEndpointResponse>

export const WebhookEndpointSecretResponse = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'the signing secret (whsec_ + base64), shown only in this answer: keep it to verify deliveries',
    }),
  },
  { title: 'WebhookEndpointSecretResponse' },
)
export type WebhookEndpointSecretResponse = Static<typeof WebhookEndpointSecretResponse>

export const RotateSecretRequest = Type.Object({
  graceSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 604_800,
      default: 86_400,
      description: 'how long the previous secret keeps signing (both signatures are sent meanwhile)',
    }),
  ),
})
export type RotateSecretRequest = Static<typeof RotateSecretRequest>

export const WebhookEventTypeResponse = Type.Object(
  { type: Type.String(), description: Type.String() },
  { title: 'WebhookEventTypeResponse' },
)

export const WebhookAttemptResponse = Type.Object(
  {
    id: Uuid(),
    endpointId: Uuid(),
    deliveryId: Nullable(Uuid()),
    eventId: Nullable(Type.String({ description: 'the webhook-id header sent' })),
    eventType: Type.String(),
    attempt: Type.Integer(),
    outcome: EnumType(ATTEMPT_OUTCOMES, {
      description: 'Refused: the address is not one webhooks may reach (nothing was sent)',
    }),
    responseStatus: Nullable(Type.Integer()),
    latencyMs: Type.Integer(),
    responseBody: Nullable(Type.String({ description: 'the first 2,048 characters of the response' })),
    error: Nullable(Type.String()),
    dateCreated: DateTime(),
  },
  { title: 'WebhookAttemptResponse' },
)
export type WebhookAttemptResponse = Static<typeof WebhookAttemptResponse>

export const WebhookEventResponse = Type.Object(
  {
    id: Uuid({ description: 'also the webhook-id header of its deliveries' }),
    type: Type.String(),
    resource: Type.String({ description: 'the resource it concerns, e.g. orderId:<uuid>' }),
    data: Type.Record(Type.String(), Type.Unknown()),
    deliveries: Type.Array(
      Type.Object({
        endpointId: Uuid(),
        status: EnumType(DELIVERY_STATUSES),
        attempts: Type.Integer(),
        nextAttemptAt: DateTime(),
      }),
    ),
    dateCreated: DateTime(),
  },
  { title: 'WebhookEventResponse' },
)
export type WebhookEventResponse = Static<typeof WebhookEventResponse>

export const ReplayRangeRequest = Type.Object(
  {
    from: DateTime({ description: 'events written at or after this instant' }),
    to: DateTime({ description: 'and before this one' }),
  },
  { title: 'ReplayWebhookRangeRequest' },
)
export type ReplayRangeRequest = Static<typeof ReplayRangeRequest>

export const ReplayResponse = Type.Object(
  { queued: Type.Integer({ description: 'deliveries queued' }) },
  { title: 'WebhookReplayResponse' },
)
