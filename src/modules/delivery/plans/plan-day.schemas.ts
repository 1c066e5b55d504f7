import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'

const CLOCK = '^([01][0-9]|2[0-3]):[0-5][0-9]$'

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
            'where vehicles without their own startLocation start (and end, without an endLocation); absent = the business’s address, else the first pickup address among the shipments',
        },
      ),
    ),
    shiftStart: Type.Optional(
      Type.String({
        pattern: CLOCK,
        description:
          'hh:mm in the business’s time zone, default 08:00: the shift of vehicles without their own (shiftStart, shiftEnd)',
      }),
    ),
    shiftEnd: Type.Optional(Type.String({ pattern: CLOCK, description: 'hh:mm, default 18:00' })),
    serviceMinutes: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 600,
        description:
          'minutes at each stop whose shipment has no serviceMinutes; absent = the business setting delivery.defaultServiceMinutes (default 5)',
      }),
    ),
  },
  { additionalProperties: false, title: 'PlanDayRequest' },
)
export type PlanDayRequest = Static<typeof PlanDayRequest>

const PlannedStop = Type.Object({
  shipmentId: Uuid(),
  code: Type.String(),
  stopSequence: Type.Integer(),
  plannedArrival: Type.String({
    format: 'date-time',
    description: 'when the stop begins: inside one of its delivery windows, after any wait for it to open',
  }),
  plannedDeparture: Type.Optional(
    Type.String({ format: 'date-time', description: 'when the vehicle leaves the stop' }),
  ),
})

const PlannedBreak = Type.Object({
  start: Type.String({ format: 'date-time' }),
  end: Type.String({ format: 'date-time' }),
  afterStopSequence: Type.Integer({
    description: 'the stop it follows (0: before the first); taken there or while waiting at the next stop',
  }),
})

export const PlanDayResponse = Type.Object(
  {
    plans: Type.Array(
      Type.Object({
        deliveryPlanId: Uuid(),
        code: Type.String(),
        vehicleId: Uuid(),
        distanceKm: Type.Number(),
        startsAt: Type.Optional(
          Type.String({ format: 'date-time', description: 'when the vehicle leaves its start location' }),
        ),
        endsAt: Type.Optional(
          Type.String({ format: 'date-time', description: 'when it reaches its end location' }),
        ),
        stops: Type.Array(PlannedStop),
        breaks: Type.Optional(
          Type.Array(PlannedBreak, { description: 'the vehicle’s breaks, in time order' }),
        ),
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
