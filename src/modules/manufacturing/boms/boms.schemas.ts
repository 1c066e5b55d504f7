import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { AsOfDate } from '../as-of.js'
import { MAX_AMOUNT } from '../decimals.js'

export const BOM_STATUSES = ['Draft', 'Active', 'Archived'] as const
export type BomStatus = (typeof BOM_STATUSES)[number]
export const BomStatusType = EnumType(BOM_STATUSES, {
  description: 'Draft -> Active (activate) -> Archived (when another revision of the product is activated).',
})

export const BomLineInput = Type.Object({
  productId: Uuid({ description: 'a product of this business that is not a Service and not archived' }),
  quantity: Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: 'per batch (outputQuantity), at most 4 decimals',
  }),
  scrapPercent: Type.Optional(
    Type.Number({
      minimum: 0,
      exclusiveMaximum: 100,
      description: 'extra consumed as scrap, 0 to under 100; default 0',
    }),
  ),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
})
export type BomLineInput = Static<typeof BomLineInput>

const outputQuantity = Type.Optional(
  Type.Number({ exclusiveMinimum: 0, maximum: MAX_AMOUNT, description: 'units one batch makes; default 1' }),
)

export const CreateBomRequest = Type.Object({
  productId: Uuid({ description: 'the product this BOM makes (not a Service)' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  outputQuantity,
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  lineItems: Type.Optional(Type.Array(BomLineInput, { maxItems: 500 })),
})
export type CreateBomRequest = Static<typeof CreateBomRequest>

export const UpdateBomRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    outputQuantity,
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    lineItems: Type.Optional(
      Type.Array(BomLineInput, { maxItems: 500, description: 'when present, replaces the lines' }),
    ),
  },
  { description: 'Draft BOMs only (409 bom_not_editable otherwise); the product stays as created.' },
)
export type UpdateBomRequest = Static<typeof UpdateBomRequest>

export const BomParams = Type.Object({ bomId: Uuid() })
export const BomLineParams = Type.Object({ bomId: Uuid(), lineItemId: Uuid() })

export const BomLineResponse = Type.Object({
  id: Uuid(),
  lineNumber: Type.Integer(),
  productId: Uuid(),
  sku: Type.String(),
  name: Type.String(),
  quantity: Type.Number(),
  scrapPercent: Type.Number(),
  notes: Nullable(Type.String()),
})
export type BomLineResponse = Static<typeof BomLineResponse>

export const BomResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  productId: Uuid(),
  product: Type.Object({ id: Uuid(), sku: Type.String(), name: Type.String() }),
  code: Type.String({ description: 'BOM-000001, shared by the revisions of one BOM' }),
  name: Type.String(),
  revision: Type.Integer(),
  status: BomStatusType,
  outputQuantity: Type.Number(),
  notes: Nullable(Type.String()),
  revisedFromId: Nullable(Uuid()),
  activatedAt: Nullable(DateTime()),
  archivedAt: Nullable(DateTime()),
  lineItems: Type.Array(BomLineResponse),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type BomResponse = Static<typeof BomResponse>

export const BomCostQuery = Type.Object({
  asOfDate: Type.Optional(AsOfDate('when to cost at')),
})

export const COST_SOURCES = ['SubAssembly', 'Ledger', 'StandardCost', 'None'] as const
export type CostSource = (typeof COST_SOURCES)[number]

const SubAssembly = Type.Object({
  bomId: Uuid(),
  code: Type.String(),
  revision: Type.Integer(),
  outputQuantity: Type.Number(),
  totalCost: Type.Number({ description: 'per batch of the sub-assembly BOM' }),
  unitCost: Type.Number({ description: 'per output unit of the sub-assembly BOM' }),
})

export const BomCostLine = Type.Object({
  lineItemId: Uuid(),
  parentLineItemId: Nullable(
    Uuid({ description: 'the sub-assembly line this line belongs to; null at the top' }),
  ),
  depth: Type.Integer({ description: '1 for this BOM’s own lines' }),
  productId: Uuid(),
  sku: Type.String(),
  name: Type.String(),
  quantity: Type.Number(),
  scrapPercent: Type.Number(),
  effectiveQuantity: Type.Number({
    description: 'quantity × (1 + scrapPercent / 100), per batch of its BOM',
  }),
  unitCost: Type.Number({ description: 'as of the date' }),
  extendedCost: Type.Number({ description: 'effectiveQuantity × unitCost' }),
  costSource: EnumType(COST_SOURCES, {
    description:
      "SubAssembly: rolled up from the product's BOM active at the date (else its current active one); Ledger: moving average at the date; StandardCost: the product's unitCost (no ledger entry by then); None: no cost at all (no ledger entry by then, no standard cost), costed at 0.",
  }),
  costMissing: Type.Boolean({
    description:
      'true when this line, or for a sub-assembly any line beneath it, has no cost (costSource None) and was costed at 0: its cost is understated',
  }),
  subAssembly: Nullable(SubAssembly),
})
export type BomCostLine = Static<typeof BomCostLine>

export const BomCostBreakdownResponse = Type.Object({
  bomId: Uuid(),
  code: Type.String(),
  revision: Type.Integer(),
  productId: Uuid(),
  asOfDate: DateTime(),
  outputQuantity: Type.Number(),
  totalCost: Type.Number({ description: 'per batch, 4 decimal places' }),
  unitCost: Type.Number({ description: 'per output unit, 4 decimal places' }),
  lineItems: Type.Array(BomCostLine, { description: 'the whole tree, depth first, in line order' }),
  costMissing: Type.Boolean({
    description:
      'true when any line has no cost and was costed at 0, so totalCost and unitCost are understated; the messages name each product',
  }),
})
export type BomCostBreakdownResponse = Static<typeof BomCostBreakdownResponse>
