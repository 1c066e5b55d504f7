import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { DIMENSION_UNITS, WEIGHT_UNITS } from '../../organisation/index.js'
import { MAX_AMOUNT } from '../decimals.js'

export const PRODUCT_TYPES = ['RawMaterial', 'Component', 'FinishedGood', 'Service'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]
export const ProductTypeType = EnumType(PRODUCT_TYPES, { description: 'A Service holds no stock.' })

export type DimensionUnit = (typeof DIMENSION_UNITS)[number]
export const DimensionUnitType = EnumType(DIMENSION_UNITS)
export type WeightUnit = (typeof WEIGHT_UNITS)[number]
export const WeightUnitType = EnumType(WEIGHT_UNITS)

const amount = (description: string) =>
  Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description })))
const positive = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: MAX_AMOUNT, description })

export const ProductDimensions = Type.Object({
  length: positive('greater than 0, at most 4 decimal places'),
  width: positive('greater than 0, at most 4 decimal places'),
  height: positive('greater than 0, at most 4 decimal places'),
  unit: DimensionUnitType,
})

const text = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })))

export const ProductRequest = Type.Object(
  {
    sku: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'unique per business, ignoring letter case (409 sku_taken)',
    }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: text(2000),
    type: ProductTypeType,
    unitOfMeasure: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description: 'short free text such as Each, Kg, M, L, Box; default Each',
      }),
    ),
    barcode: text(64),
    unitCost: amount('standard cost per unit; used for costing until the ledger has a receipt'),
    unitPrice: amount('selling price per unit'),
    weight: amount('per unit, in weightUnit'),
    weightUnit: Type.Optional(Nullable(WeightUnitType)),
    dimensions: Type.Optional(Nullable(ProductDimensions)),
    reorderLevel: amount('an issue that takes the stock to or below it publishes StockAtReorderLevel'),
    active: Type.Optional(
      Type.Boolean({ description: 'default true; false hides it from new BOMs and movements' }),
    ),
  },
  {
    description:
      'Amounts take at most 4 decimal places. PUT replaces the item: omitted optional fields become null.',
  },
)
export type ProductRequest = Static<typeof ProductRequest>

export const ProductParams = Type.Object({ productId: Uuid() })

export const ProductResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  sku: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  type: ProductTypeType,
  unitOfMeasure: Type.String(),
  barcode: Nullable(Type.String()),
  unitCost: Nullable(Type.Number()),
  unitPrice: Nullable(Type.Number()),
  weight: Nullable(Type.Number()),
  weightUnit: Nullable(WeightUnitType),
  dimensions: Nullable(ProductDimensions),
  reorderLevel: Nullable(Type.Number()),
  active: Type.Boolean(),
  onHand: Type.Number({ description: 'current stock from the ledger' }),
  averageCost: Type.Number({ description: 'current moving-average cost from the ledger' }),
  archivedAt: Nullable(DateTime()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type ProductResponse = Static<typeof ProductResponse>
