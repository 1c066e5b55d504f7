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

/** Where a stop's proof is read (API paths; the files need the business's credentials). */
export const ProofLinks = Type.Object(
  {
    proofUrl: Type.String({ description: 'GET: the stop operations and proof of the shipment' }),
    signatureUrl: Nullable(Type.String({ description: 'GET: the signature image' })),
    photoUrls: Type.Array(Type.String(), { description: 'GET: each photo' }),
  },
  { title: 'ProofLinks' },
)
export type ProofLinks = Static<typeof ProofLinks>

/** A shipment's delivery ended: delivered, or failed with the driver's reason. */
export const ShipmentOutcomePayload = Type.Object(
  {
    shipmentId: Uuid(),
    code: Type.String(),
    deliveryPlanId: Nullable(Uuid()),
    reason: Nullable(Type.String()),
    proof: Type.Optional(ProofLinks),
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
    webhook: {
      type: 'shipment.delivered',
      description:
        'A shipment was delivered; proof carries the links to its proof of delivery when one was taken.',
      resourceField: 'shipmentId',
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
    webhook: {
      type: 'shipment.failed',
      description:
        "A shipment could not be delivered (reason: the driver's words; proof: links to the stop's photos).",
      resourceField: 'shipmentId',
    },
  },
})
