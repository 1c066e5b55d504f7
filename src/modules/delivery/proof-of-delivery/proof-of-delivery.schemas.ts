import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const AFTER_FAILURE = ['Replan', 'ReturnToStock'] as const
export type AfterFailure = (typeof AFTER_FAILURE)[number]
export const STOP_OPERATION_KINDS = ['Arrived', 'Delivered', 'Failed'] as const

/** The most photos one stop may carry. */
export const MAX_PHOTOS = 10

const point = {
  latitude: Type.Optional(
    Nullable(Type.Number({ minimum: -90, maximum: 90, description: 'where the driver was (WGS 84)' })),
  ),
  longitude: Type.Optional(
    Nullable(Type.Number({ minimum: -180, maximum: 180, description: 'sent with latitude, or neither' })),
  ),
  at: Type.Optional(
    Nullable(
      DateTime({
        description:
          'when it happened, as the device saw it (a report sent late); default: now. Not before the shipment was dispatched, nor in the future',
      }),
    ),
  ),
}

const photos = Type.Optional(
  Type.Array(Uuid(), {
    maxItems: MAX_PHOTOS,
    uniqueItems: true,
    description: `up to ${MAX_PHOTOS} photos, each a PNG, JPEG, WebP or HEIC image of this business uploaded first with POST /api/files/single`,
  }),
)

export const ArrivedRequest = Type.Object(point, { title: 'StopArrivedRequest' })
export type ArrivedRequest = Static<typeof ArrivedRequest>

export const DeliveredRequest = Type.Object(
  {
    recipientName: Type.String({ minLength: 1, maxLength: 200, description: 'who took the goods' }),
    signatureFileId: Uuid({
      description:
        'the signature: a PNG or JPEG image of at most 1 MiB of this business, uploaded first with POST /api/files/single',
    }),
    photoFileIds: photos,
    note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    ...point,
  },
  { title: 'StopDeliveredRequest' },
)
export type DeliveredRequest = Static<typeof DeliveredRequest>

export const FailedRequest = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'why the delivery failed' }),
    afterFailure: Type.Optional(
      Nullable(
        EnumType(AFTER_FAILURE, {
          description:
            'what completing the plan does with it: Replan (back to Pending, for a later plan) or ReturnToStock (Returned); null: the business setting delivery.failedDeliveryAction',
        }),
      ),
    ),
    photoFileIds: photos,
    ...point,
  },
  { title: 'StopFailedRequest' },
)
export type FailedRequest = Static<typeof FailedRequest>

export const StopOperationResponse = Type.Object(
  {
    id: Uuid(),
    shipmentId: Uuid(),
    deliveryPlanId: Nullable(Uuid()),
    kind: EnumType(STOP_OPERATION_KINDS),
    occurredAt: DateTime(),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
    recipientName: Nullable(Type.String()),
    signatureFileId: Nullable(Uuid()),
    photoFileIds: Type.Array(Uuid()),
    note: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    afterFailure: Nullable(EnumType(AFTER_FAILURE)),
    resolution: Nullable(
      Type.String({ description: 'Replanned or Returned once the plan completed (a failed delivery)' }),
    ),
    dateCreated: DateTime(),
  },
  { title: 'StopOperationResponse' },
)
export type StopOperationResponse = Static<typeof StopOperationResponse>

export const ShipmentProofResponse = Type.Object(
  {
    shipmentId: Uuid(),
    code: Type.String(),
    status: Type.String({ description: 'A ShipmentStatus name' }),
    operations: Type.Array(StopOperationResponse, { description: 'oldest first' }),
  },
  { title: 'ShipmentProofResponse' },
)
export type ShipmentProofResponse = Static<typeof ShipmentProofResponse>

export const ProofShipmentParams = Type.Object({ shipmentId: Uuid() })
