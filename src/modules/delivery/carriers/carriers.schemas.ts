import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { CARRIER_TYPES } from './catalogue.js'

const Credentials = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 4000 }), {
  description:
    'API keys, account numbers, passwords... stored encrypted (AES-256-GCM), never returned or logged',
  maxProperties: 20,
})

export const ConfigureCarrierRequest = Type.Object({
  carrierId: Type.Integer({ description: 'catalogue id (GET /api/carriers)' }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  isDefault: Type.Optional(
    Type.Boolean({ default: false, description: 'true makes it the only default carrier' }),
  ),
  accountReference: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  credentials: Type.Optional(Nullable(Credentials)),
})
export type ConfigureCarrierRequest = Static<typeof ConfigureCarrierRequest>

export const UpdateCarrierRequest = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  isDefault: Type.Optional(Type.Boolean()),
  accountReference: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  credentials: Type.Optional(Nullable(Credentials)),
})
export type UpdateCarrierRequest = Static<typeof UpdateCarrierRequest>

export const CarrierIdParams = Type.Object({
  carrierId: Type.Integer({ minimum: -2147483648, maximum: 2147483647 }),
})
export const ConfiguredCarrierParams = Type.Object({
  carrierId: Uuid({ description: "the configured carrier's id" }),
})
export const CarriersQuery = Type.Object({
  configured: Type.Boolean({
    default: false,
    description: 'true = only carriers configured for this business',
  }),
})

export const CarrierConfiguration = Type.Object({
  id: Uuid(),
  carrierId: Type.Integer(),
  enabled: Type.Boolean(),
  isDefault: Type.Boolean(),
  accountReference: Nullable(Type.String()),
  hasCredentials: Type.Boolean({ description: 'whether credentials are stored; they are never returned' }),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type CarrierConfiguration = Static<typeof CarrierConfiguration>

export const FulfillmentProviderResponse = Type.Object({
  id: Type.Integer({ description: 'stable catalogue id' }),
  name: Type.String(),
  type: Type.String({ description: CARRIER_TYPES.join(', ') }),
  countries: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2; empty = anywhere' }),
  services: Type.Array(Type.String()),
  website: Nullable(Type.String()),
  configured: Type.Boolean(),
  configuration: Nullable(CarrierConfiguration),
})
export type FulfillmentProviderResponse = Static<typeof FulfillmentProviderResponse>

export const FulfillmentProviderLookupWrapperResponse = Type.Object({
  carriers: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.String(), configured: Type.Boolean() }),
  ),
  types: Type.Array(Type.String()),
  countries: Type.Array(Type.String()),
})
