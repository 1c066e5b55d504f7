import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const ShipmentDispatchedPayload = Type.Object(
  {
    shipmentId: Uuid(),
    code: Type.String(),
    deliveryPlanId: Nullable(Uuid({ description: 'null when dispatched on its own' })),
    orderId: Nullable(Uuid()),
    lines: Type.Array(Type.Object({ productId: Uuid(), quantity: Type.Number(), unitCost: Type.Number() }), {
      description: 'what left stock with it, at the moving-average cost',
    }),
  },
  { title: 'ShipmentDispatchedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    ShipmentDispatched: Static<typeof ShipmentDispatchedPayload>
  }
}

export const shipmentLineEvents = defineEvents({
  ShipmentDispatched: {
    payload: ShipmentDispatchedPayload,
    description: 'A shipment left on its dispatched plan; its lines were issued from stock.',
    webhook: {
      type: 'shipment.dispatched',
      description: 'A shipment left on its dispatched plan, with the goods it carries.',
      resourceField: 'shipmentId',
    },
  },
})
