import { type Static, Type } from '@sinclair/typebox'
import { BUSINESS_DATE_RULE, LEDGER_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { MAX_AMOUNT } from '../decimals.js'

export const WORK_ORDER_STATUSES = ['Draft', 'Released', 'InProgress', 'Completed', 'Cancelled'] as const
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number]
export const WorkOrderStatusType = EnumType(WORK_ORDER_STATUSES, {
  description:
    'Draft -> Released -> InProgress -> Completed; Released may complete directly; Draft, Released or InProgress -> Cancelled.',
})

export const WorkOrderRequest = Type.Object({
  bomId: Uuid({ description: 'an Active BOM of this business; the work order makes its product' }),
  quantity: Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: 'units to make, at most 4 decimals',
  }),
  plannedStart: Type.Optional(Nullable(DateTime({ description: BUSINESS_DATE_RULE }))),
  plannedEnd: Type.Optional(
    Nullable(DateTime({ description: `not before plannedStart; ${BUSINESS_DATE_RULE}` })),
  ),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
})
export type WorkOrderRequest = Static<typeof WorkOrderRequest>

export const CompleteWorkOrderRequest = Type.Object(
  {
    effectiveDate: Type.Optional(
      DateTime({
        description: `when it was made: the component issues and the finished-goods receipt enter the stock ledger at that date; default now; ${LEDGER_DATE_RULE}`,
      }),
    ),
    quantityProduced: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: MAX_AMOUNT, description: 'default the planned quantity' }),
    ),
  },
  {
    description:
      "Posts, in one transaction at effectiveDate, each component's issue (BOM quantity with scrap × quantityProduced / outputQuantity) and the receipt of the product at the actual cost of what was consumed. Short components: 409 component_shortfall, one reason per product with its shortfall, nothing posted.",
  },
)
export type CompleteWorkOrderRequest = Static<typeof CompleteWorkOrderRequest>

export const WorkOrderParams = Type.Object({ workOrderId: Uuid() })

export const WorkOrderResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  code: Type.String({ description: 'WO-000001, per business' }),
  bomId: Uuid(),
  bom: Type.Object({ id: Uuid(), code: Type.String(), revision: Type.Integer() }),
  productId: Uuid(),
  product: Type.Object({ id: Uuid(), sku: Type.String(), name: Type.String() }),
  quantity: Type.Number(),
  status: WorkOrderStatusType,
  plannedStart: Nullable(DateTime()),
  plannedEnd: Nullable(DateTime()),
  notes: Nullable(Type.String()),
  standardUnitCost: Nullable(Type.Number({ description: "frozen at release from the BOM's cost then" })),
  standardTotalCost: Nullable(Type.Number({ description: 'standardUnitCost × quantity' })),
  actualUnitCost: Nullable(Type.Number({ description: 'actualTotalCost / quantityProduced' })),
  actualTotalCost: Nullable(Type.Number({ description: 'ledger cost of the components consumed' })),
  costVariance: Nullable(
    Type.Number({ description: 'actualTotalCost - standardUnitCost × quantityProduced' }),
  ),
  quantityProduced: Nullable(Type.Number()),
  effectiveDate: Nullable(DateTime({ description: 'the ledger date of the completion' })),
  releasedAt: Nullable(DateTime()),
  startedAt: Nullable(DateTime()),
  completedAt: Nullable(DateTime()),
  cancelledAt: Nullable(DateTime()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type WorkOrderResponse = Static<typeof WorkOrderResponse>
