import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const ShipmentStatusChangedPayload = Type.Object(
  {
    shipmentId: Uuid(),
    code: Type.String(),
    deliveryPlanId: Nullable(Uuid()),
    from: Type.String({ description: 'A ShipmentStatus name' }),
    to: Type.String({ description: 'A ShipmentStatus name' }),
  },
  { title: 'ShipmentStatusChangedPayload' },
)

/** A shipment's delivery ended: delivered, or failed with the driver's reason. */
export const ShipmentOutcomePayload = Type.Object(
  {
    shipmentId: Uuid(),
    code: Type.String(),
    deliveryPlanId: Nullable(Uuid()),
    reason: Nullable(Type.String()),
  },
  { title: 'ShipmentOutcomePayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    ShipmentStatusChanged: Static<typeof ShipmentStatusChangedPayload>
    ShipmentDelivered: Static<typeof ShipmentOutcomePayload>
    ShipmentFailed: Static<typeof ShipmentOutcomePayload>
  }
}

export const shipmentEvents = defineEvents({
  ShipmentStatusChanged: {
    payload: ShipmentStatusChangedPayload,
    description: 'A shipment moved to another status.',
    webhook: {
      type: 'shipment.status_changed',
      description: 'A shipment moved to another status through its status routes (from, to).',
      resourceField: 'shipmentId',
    },
  },
  ShipmentDelivered: {
    payload: ShipmentOutcomePayload,
    description: 'A shipment was delivered.',
    notification: {
      content: ({ payload }) => ({
        title: 'Shipment delivered',
        message: `Shipment ${payload.code} was delivered.`,
        level: 'Success',
        priority: 'Medium',
        entityType: 'Shipment',
        entityId: payload.shipmentId,
        actionLink: `/api/v1/shipments/${payload.shipmentId}`,
      }),
    },
  },
  ShipmentFailed: {
    payload: ShipmentOutcomePayload,
    description: 'A shipment could not be delivered.',
    notification: {
      content: ({ payload }) => ({
        title: 'Delivery failed',
        message: `Shipment ${payload.code} could not be delivered: ${payload.reason ?? ''}`,
        level: 'Warning',
        priority: 'High',
        entityType: 'Shipment',
        entityId: payload.shipmentId,
        actionLink: `/api/v1/shipments/${payload.shipmentId}`,
      }),
    },
  },
})
