import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { MAX_LEAD_TIME_DAYS } from './suppliers.schemas.js'

/** Largest unit cost or quantity accepted (fits numeric(18, 6) and numeric(18, 4) with room to multiply). */
export const MAX_TERMS_AMOUNT = 1_000_000_000

export const SupplierProductRequest = Type.Object(
  {
    supplierSku: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: "the supplier's own code for the product" })),
    ),
    unitCost: Type.Number({
      minimum: 0,
      maximum: MAX_TERMS_AMOUNT,
      description: "price per unit in the supplier's currency, at most 6 decimal places",
    }),
    minimumOrderQuantity: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_TERMS_AMOUNT,
        description:
          'smallest quantity the supplier accepts per order, at most 4 decimal places; default 0 (none)',
      }),
    ),
    leadTimeDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: MAX_LEAD_TIME_DAYS,
          description: "days from ordering to delivery for this product; null or omitted: the supplier's",
        }),
      ),
    ),
    isPreferred: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "true makes this the product's preferred supplier (the previous one stops being preferred); a PUT replaces, so omitted is false",
      }),
    ),
  },
  { title: 'SupplierProductRequest' },
)
export type SupplierProductRequest = Static<typeof SupplierProductRequest>

export const SupplierProductResponse = Type.Object(
  {
    supplierId: Uuid(),
    productId: Uuid(),
    productSku: Type.String(),
    productName: Type.String(),
    supplierSku: Nullable(Type.String()),
    unitCost: Type.Number({ description: "in the supplier's currency" }),
    currency: Type.String({ description: "the supplier's currency (ISO 4217)" }),
    minimumOrderQuantity: Type.Number({ description: '0: no minimum' }),
    leadTimeDays: Nullable(
      Type.Integer({ description: "the product's own lead time; null: the supplier's" }),
    ),
    effectiveLeadTimeDays: Type.Integer({ description: "leadTimeDays, else the supplier's lead time" }),
    isPreferred: Type.Boolean({ description: 'at most one supplier of a product is preferred' }),
    dateCreated: DateTime(),
    dateModified: DateTime(),
  },
  { title: 'SupplierProductResponse' },
)
export type SupplierProductResponse = Static<typeof SupplierProductResponse>

export const SupplierProductParams = Type.Object({ supplierId: Uuid(), productId: Uuid() })
