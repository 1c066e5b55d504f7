import { type TSchema, Type } from '@sinclair/typebox'
import { DateTime, Uuid } from '../../../http/schema-helpers.js'
import type { DeclaredEvent } from '../../../platform/domain-events.js'

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')

/** The event's payload with the business it happened in, as `data` carries it (webhooks.handler.ts). */
function dataSchema(payload: TSchema, title: string): TSchema {
  const business = { businessId: Uuid({ description: 'The business the event happened in' }) }
  if (payload.type === 'object' && payload.properties) {
    return {
      ...payload,
      title,
      properties: { ...business, ...payload.properties },
      required: ['businessId', ...(payload.required ?? [])],
    }
  }
  return Type.Intersect([Type.Object(business), payload], { title })
}

/**
 * The OpenAPI 3.1 `webhooks` of the Core API: one POST per webhook event type the modules declare,
 * its body the Standard Webhooks message Cartage sends, `data` being the event's payload schema
 * (the one the notification and the outbox are written from).
 */
export function webhooksForOpenApi(declared: readonly DeclaredEvent[]): Record<string, unknown> {
  return Object.fromEntries(
    declared.flatMap(({ webhook, payload, type }) => {
      if (!webhook) return []
      const name = pascal(webhook.type)
      const body = Type.Object(
        {
          type: Type.Literal(webhook.type),
          timestamp: DateTime({ description: 'When the event happened' }),
          data: dataSchema(payload, `${type}WebhookData`),
        },
        { title: `${name}Webhook` },
      )
      const operation = {
        operationId: `${name}Webhook`,
        summary: webhook.description,
        description:
          'Sent to each enabled endpoint subscribed to this type, signed by the Standard Webhooks headers; ' +
          'events of one resource reach an endpoint in order, and a delivery is retried until a 2xx answer.',
        tags: ['Webhooks'],
        // The receiver authenticates the sender by the signature header, not by a credential of its own.
        security: [],
        parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((header) => ({
          in: 'header',
          name: header,
          required: true,
          schema: { type: 'string' },
        })),
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: { '200': { description: 'Received (any 2xx); anything else is retried' } },
      }
      return [[webhook.type, { post: operation }]]
    }),
  )
}
