import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { BUSINESS_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const SHIPMENT_STATUSES = [
  'Pending',
  'Assigned',
  'InTransit',
  'Delivered',
  'Failed',
  'Returned',
  'Cancelled',
] as const
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number]
export const ShipmentStatusType = EnumType(SHIPMENT_STATUSES, {
  description:
    'Pending -> Assigned -> InTransit -> Delivered or Failed; Failed -> Returned; Pending, Assigned or InTransit -> Cancelled (goods that left with it go back to stock).',
})

const amount = (description: string) =>
  Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description })))

/** At most this many delivery windows per shipment. */
export const MAX_DELIVERY_WINDOWS = 4

export const DeliveryWindow = Type.Object(
  {
    start: DateTime({
      description: 'the earliest the stop may begin (a date-time without an offset is UTC)',
    }),
    end: DateTime({ description: 'the latest the stop may begin; after start' }),
  },
  { additionalProperties: false },
)
export type DeliveryWindow = Static<typeof DeliveryWindow>

export const ShipmentRequest = Type.Object({
  orderId: Type.Optional(
    Nullable(
      Uuid({
        description:
          "an order of this business; customerId and deliveryAddress default to the order's when omitted",
      }),
    ),
  ),
  customerId: Type.Optional(
    Nullable(Uuid({ description: 'a customer of this business that is not deleted' })),
  ),
  pickupAddress: Type.Optional(Nullable(AddressInput)),
  deliveryAddress: Type.Optional(Nullable(AddressInput)),
  weight: amount(
    "kg; when not given (or null), Cartage keeps it at what the shipment's lines weigh (their products' weights)",
  ),
  volume: amount(
    "cubic metres; when not given (or null), Cartage keeps it at its package-size preset's volume, else at what its lines' products measure",
  ),
  dimensionPresetId: Type.Optional(
    Nullable(
      Uuid({
        description:
          'a package size preset of this business (by id); another business’s or an unknown one: 404 dimension_preset_not_found naming this field',
      }),
    ),
  ),
  scheduledDate: Type.Optional(
    Nullable(
      DateTime({
        description: `when it should be delivered; autobatch takes it onto a plan of that day in the business's time zone (a date-time without an offset is UTC); ${BUSINESS_DATE_RULE}`,
      }),
    ),
  ),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  deliveryWindows: Type.Optional(
    Nullable(
      Type.Array(DeliveryWindow, {
        maxItems: MAX_DELIVERY_WINDOWS,
        description:
          'when the stop may begin: up to 4 windows, sorted by start and not overlapping (400 naming deliveryWindows.<i>.start or .end); the planner waits for a window to open and leaves out a shipment none of whose windows it can meet. Absent, null or [] = any time in the vehicle’s shift. A PUT without it clears it.',
      }),
    ),
  ),
  serviceMinutes: Type.Optional(
    Nullable(
      Type.Number({
        minimum: 0,
        maximum: 600,
        description:
          'minutes spent at the stop; null = the plan-day request’s serviceMinutes, else the business setting delivery.defaultServiceMinutes',
      }),
    ),
  ),
})
export type ShipmentRequest = Static<typeof ShipmentRequest>

export const ShipmentParams = Type.Object({ shipmentId: Uuid() })

export const FailRequest = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'why the delivery failed' }),
})
export type FailRequest = Static<typeof FailRequest>

export const DeliverRequest = Type.Object({
  recipientName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  fileId: Type.Optional(
    Nullable(Uuid({ description: 'proof of delivery uploaded first with POST /api/files/single' })),
  ),
})
export type DeliverRequest = Static<typeof DeliverRequest>

export const ProofOfDelivery = Type.Object({
  recipientName: Nullable(Type.String()),
  note: Nullable(Type.String()),
  fileId: Nullable(Uuid()),
})
export type ProofOfDelivery = Static<typeof ProofOfDelivery>

export const ShipmentResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  code: Type.String({ description: 'SHP-000001, per business (prefix from settings)' }),
  orderId: Nullable(Uuid()),
  customerId: Nullable(Uuid()),
  status: ShipmentStatusType,
  pickupAddress: Nullable(AddressOutput),
  deliveryAddress: Nullable(AddressOutput),
  weight: Nullable(Type.Number()),
  volume: Nullable(Type.Number()),
  dimensionPresetId: Nullable(Uuid()),
  scheduledDate: Nullable(DateTime()),
  deliveryPlanId: Nullable(Uuid()),
  stopSequence: Nullable(Type.Integer({ description: '1-based position on its plan' })),
  notes: Nullable(Type.String()),
  failReason: Nullable(Type.String()),
  proof: Nullable(ProofOfDelivery),
  assignedAt: Nullable(DateTime()),
  dispatchedAt: Nullable(DateTime()),
  deliveredAt: Nullable(DateTime()),
  failedAt: Nullable(DateTime()),
  returnedAt: Nullable(DateTime()),
  cancelledAt: Nullable(DateTime()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
  deliveryWindows: Type.Optional(Type.Array(DeliveryWindow, { description: 'sorted; [] = any time' })),
  serviceMinutes: Type.Optional(Nullable(Type.Number())),
  plannedArrival: Type.Optional(
    Nullable(
      DateTime({
        description:
          'when the stop is planned to begin (after any wait for its window), as planning the day (POST /api/v1/plans/plan-day) set it; null when not planned so, or its stop changed since',
      }),
    ),
  ),
  plannedDeparture: Type.Optional(
    Nullable(DateTime({ description: 'when the vehicle is planned to leave the stop' })),
  ),
})
export type ShipmentResponse = Static<typeof ShipmentResponse>
