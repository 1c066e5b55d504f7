import { type Static, Type } from '@sinclair/typebox'
import { defineEvents } from '../../../platform/domain-events.js'

export const CarrierConfiguredPayload = Type.Object(
  {
    carrierId: Type.Integer({ description: 'The carrier catalogue id (GET /api/carriers)' }),
    name: Type.String(),
  },
  { title: 'CarrierConfiguredPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    CarrierConfigured: Static<typeof CarrierConfiguredPayload>
  }
}

export const carrierEvents = defineEvents({
  CarrierConfigured: {
    payload: CarrierConfiguredPayload,
    description: 'A carrier was configured for the business.',
    notification: {
      content: ({ payload }) => ({
        title: 'Carrier configured',
        message: `${payload.name} is configured for this business.`,
        level: 'Info',
        priority: 'Medium',
        entityType: 'IntegrationProvider',
        entityId: null,
        actionLink: `/api/carriers/${payload.carrierId}`,
      }),
    },
  },
})
