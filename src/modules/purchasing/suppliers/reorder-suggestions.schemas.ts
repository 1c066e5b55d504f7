import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'

export const PreferredSupplierRef = Type.Object(
  {
    id: Uuid(),
    code: Type.String(),
    name: Type.String(),
    currency: Type.String({ description: 'ISO 4217; unitCost and estimatedCost are in it' }),
  },
  { title: 'PreferredSupplierRef' },
)

export const ReorderSuggestion = Type.Object(
  {
    productId: Uuid(),
    productSku: Type.String(),
    productName: Type.String(),
    productType: Type.String({ description: 'RawMaterial, Component, FinishedGood or Service' }),
    unitOfMeasure: Type.String(),
    onHand: Type.Number({ description: 'current stock' }),
    reorderLevel: Type.Number(),
    suggestedQuantity: Type.Number({
      description:
        'max(minimumOrderQuantity, 2 x reorderLevel - onHand): enough to bring the stock back to twice its reorder level, and at least what the preferred supplier accepts',
    }),
    preferredSupplier: Nullable(PreferredSupplierRef),
    supplierSku: Nullable(Type.String()),
    unitCost: Nullable(Type.Number({ description: "the preferred supplier's unit cost" })),
    minimumOrderQuantity: Nullable(Type.Number()),
    leadTimeDays: Nullable(
      Type.Integer({
        description: "the preferred supplier's lead time for the product, else its general one",
      }),
    ),
    estimatedCost: Nullable(
      Type.Number({ description: 'suggestedQuantity x unitCost, rounded to 4 places' }),
    ),
  },
  { title: 'ReorderSuggestion' },
)
export type ReorderSuggestion = Static<typeof ReorderSuggestion>
