import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { type DomainEvent, defineEvents } from '../../../platform/domain-events.js'

/** An API key of the business was created or revoked. */
export const ApiKeyEventPayload = Type.Object(
  {
    apiKeyId: Uuid(),
    label: Nullable(Type.String()),
    keyPrefix: Type.String({ description: 'The first characters of the key, as the key list shows them' }),
  },
  { title: 'ApiKeyEventPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    ApiKeyCreated: Static<typeof ApiKeyEventPayload>
    ApiKeyRevoked: Static<typeof ApiKeyEventPayload>
  }
}

const keyName = ({ payload }: DomainEvent<'ApiKeyCreated' | 'ApiKeyRevoked'>) =>
  payload.label || payload.keyPrefix

export const apiKeyEvents = defineEvents({
  ApiKeyCreated: {
    payload: ApiKeyEventPayload,
    description: 'An API key was created.',
    notification: {
      content: (event) => ({
        title: 'API key created',
        message: `API key ${keyName(event)} was created.`,
        level: 'Info',
        priority: 'Medium',
        entityType: 'User',
        entityId: event.userId,
        actionLink: null,
      }),
    },
  },
  ApiKeyRevoked: {
    payload: ApiKeyEventPayload,
    description: 'An API key was revoked.',
    notification: {
      content: (event) => ({
        title: 'API key revoked',
        message: `API key ${keyName(event)} was revoked.`,
        level: 'Warning',
        priority: 'Medium',
        entityType: 'User',
        entityId: event.userId,
        actionLink: null,
      }),
    },
  },
})
