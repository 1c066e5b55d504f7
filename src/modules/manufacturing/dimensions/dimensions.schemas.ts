import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { DimensionUnitType, WeightUnitType } from '../products/index.js'

const size = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description })

export const DimensionPresetRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    length: size('greater than 0, at most 4 decimal places'),
    width: size('greater than 0, at most 4 decimal places'),
    height: size('greater than 0, at most 4 decimal places'),
    dimensionUnit: DimensionUnitType,
    maxWeight: Type.Optional(Nullable(size('greater than 0 when given'))),
    weightUnit: WeightUnitType,
    isDefault: Type.Optional(
      Type.Boolean({
        description:
          "true makes it the business's one default preset (the previous default stops being one). The first preset of a business is the default.",
      }),
    ),
    country: Type.Optional(
      Nullable(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' })),
    ),
  },
  { description: 'PUT replaces the preset; omitted optional fields become null (isDefault: kept).' },
)
export type DimensionPresetRequest = Static<typeof DimensionPresetRequest>

export const PresetParams = Type.Object({ presetId: Uuid() })

export const DimensionPresetResponse = Type.Object({
  id: Uuid({ description: 'templates have stable ids too' }),
  businessId: Type.Optional(Uuid({ description: 'absent on templates' })),
  name: Type.String(),
  length: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
  dimensionUnit: DimensionUnitType,
  maxWeight: Nullable(Type.Number()),
  weightUnit: WeightUnitType,
  isDefault: Type.Boolean(),
  country: Nullable(Type.String()),
  carrier: Type.Optional(Type.String({ description: 'templates only: the carrier or postal service' })),
  dateCreated: Type.Optional(DateTime()),
  dateModified: Type.Optional(DateTime()),
})
export type DimensionPresetResponse = Static<typeof DimensionPresetResponse>

export const GeometryFieldSymbol = Type.Object({
  country: Nullable(Type.String({ description: "the business's country" })),
  dimensionUnit: DimensionUnitType,
  dimensionSymbol: Type.String({ examples: ['cm'] }),
  weightUnit: WeightUnitType,
  weightSymbol: Type.String({ examples: ['kg'] }),
})
export type GeometryFieldSymbol = Static<typeof GeometryFieldSymbol>
