import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'

export const PlanDayRequest = Type.Object(
  {
    date: Type.String({
      format: 'date',
      description:
        'the delivery day (yyyy-mm-dd, the business’s day): its Pending, unassigned shipments are planned',
    }),
    vehicleIds: Type.Optional(
      Type.Array(Uuid(), {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description: 'the vehicles to plan for; absent = every active vehicle of the business',
      }),
    ),
    depot: Type.Optional(
      Type.Object(
        {
          latitude: Type.Number({ minimum: -90, maximum: 90 }),
          longitude: Type.Number({ minimum: -180, maximum: 180 }),
        },
        {
          description:
            'where the vehicles start and end; absent = the first pickup address among the shipments',
        },
      ),
    ),
    shiftStart: Type.Optional(
      Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'hh:mm, default 08:00 (UTC)' }),
    ),
    shiftEnd: Type.Optional(
      Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'hh:mm, default 18:00 (UTC)' }),
    ),
    serviceMinutes: Type.Optional(
      Type.Number({ minimum: 0, maximum: 600, description: 'time spent at each stop, default 5' }),
    ),
  },
  { additionalProperties: false, title: 'PlanDayRequest' },
)
export type PlanDayRequest = Static<typeof PlanDayRequest>

const PlannedStop = Type.Object({
  shipmentId: Uuid(),
  code: Type.String(),
  stopSequence: Type.Integer(),
  plannedArrival: Type.String({ format: 'date-time' }),
})

export const PlanDayResponse = Type.Object(
  {
    plans: Type.Array(
      Type.Object({
        deliveryPlanId: Uuid(),
        code: Type.String(),
        vehicleId: Uuid(),
        distanceKm: Type.Number(),
        stops: Type.Array(PlannedStop),
      }),
    ),
    leftOut: Type.Array(
      Type.Object({
        shipmentId: Uuid(),
        code: Type.String(),
        reason: Type.String({
          description:
            'noLocation, noVehicle, capacity, window, shift, unreachable, skills, maxStops or maxDistance',
        }),
      }),
    ),
  },
  { title: 'PlanDayResponse' },
)
export type PlanDayResponse = Static<typeof PlanDayResponse>
