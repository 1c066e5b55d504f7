import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

const capacity = (what: string) =>
  Type.Optional(
    Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000, description: `${what}; null = no limit` })),
  )

/** hh:mm, 00:00 to 23:59: a time of day in the business's time zone. */
export const ClockTime = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description })

export const MAX_BREAKS = 3

export const Location = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { additionalProperties: false },
)
export type Location = Static<typeof Location>

export const VehicleBreak = Type.Object(
  {
    earliest: ClockTime('hh:mm: the break may start from then'),
    latest: ClockTime('hh:mm: and must have started by then; not before earliest'),
    durationMinutes: Type.Integer({ minimum: 1, maximum: 480 }),
  },
  { additionalProperties: false },
)
export type VehicleBreak = Static<typeof VehicleBreak>

const location = (description: string) =>
  Type.Optional(Nullable(Type.Object(Location.properties, { additionalProperties: false, description })))

export const VehicleRequest = Type.Object({
  registration: Type.String({
    minLength: 1,
    maxLength: 30,
    description: 'unique per business, any letter case',
  }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  maxWeight: capacity('largest load in kg'),
  maxVolume: capacity('largest load in cubic metres'),
  active: Type.Optional(Type.Boolean({ default: true })),
  shiftStart: Type.Optional(
    Nullable(
      ClockTime(
        'hh:mm in the business’s time zone: the vehicle leaves its start no earlier; with shiftEnd, or neither (null: the plan-day request’s shift)',
      ),
    ),
  ),
  shiftEnd: Type.Optional(
    Nullable(ClockTime('hh:mm: the vehicle is back at its end location by then; after shiftStart')),
  ),
  startLocation: location('where the vehicle starts its day; null: the business’s address'),
  endLocation: location('where it ends its day; null: where it starts'),
  breaks: Type.Optional(
    Type.Array(VehicleBreak, {
      maxItems: MAX_BREAKS,
      description:
        'breaks planning keeps for the driver, taken between stops (or while waiting for a window); each within the shift when the vehicle has one. Absent = none.',
    }),
  ),
})
export type VehicleRequest = Static<typeof VehicleRequest>

export const VehicleParams = Type.Object({ vehicleId: Uuid() })

export const VehicleResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  registration: Type.String(),
  name: Type.String(),
  maxWeight: Nullable(Type.Number()),
  maxVolume: Nullable(Type.Number()),
  active: Type.Boolean(),
  dateCreated: DateTime(),
  dateModified: DateTime(),
  shiftStart: Type.Optional(Nullable(Type.String())),
  shiftEnd: Type.Optional(Nullable(Type.String())),
  startLocation: Type.Optional(Nullable(Location)),
  endLocation: Type.Optional(Nullable(Location)),
  breaks: Type.Optional(Type.Array(VehicleBreak)),
})
export type VehicleResponse = Static<typeof VehicleResponse>
