import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

const capacity = (what: string) =>
  Type.Optional(
    Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000, description: `${what}; null = no limit` })),
  )

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
})
export type VehicleResponse = Static<typeof VehicleResponse>
