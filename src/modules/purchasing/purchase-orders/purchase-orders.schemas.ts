import { type Static, Type } from '@sinclair/typebox'
import { BUSINESS_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const PURCHASE_ORDER_STATUSES = [
  'Draft',
  'Submitted',
  'PartiallyReceived',
  'Received',
  'Closed',
  'Cancelled',
] as const
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number]

export const PurchaseOrderStatusType = EnumType(PURCHASE_ORDER_STATUSES, {
  description:
    'Draft -> Submitted -> PartiallyReceived -> Received -> Closed; PartiallyReceived -> Closed (short-close); ' +
    'Draft or Submitted -> Cancelled. Receipts move Submitted or PartiallyReceived on; reversing one moves back.',
})

/** Largest quantity or unit cost accepted: keeps a line total within numeric(18, 4). */
export const MAX_AMOUNT = 1_000_000_000

export const PurchaseOrderLineInput = Type.Object({
  productId: Uuid({
    description: 'a product of this business that holds stock (not a Service, not archived); once per order',
  }),
  quantity: Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: 'quantity ordered, greater than 0, at most 4 decimal places',
  }),
  unitCost: Type.Optional(
    Nullable(
      Type.Number({
        minimum: 0,
        maximum: MAX_AMOUNT,
        description:
          "in the order's currency, at most 6 decimal places; omitted or null: the supplier's unit cost for the product (its terms), and a 400 naming lines.<i>.unitCost when the supplier has none",
      }),
    ),
  ),
})
export type PurchaseOrderLineInput = Static<typeof PurchaseOrderLineInput>

export const PurchaseOrderRequest = Type.Object(
  {
    supplierId: Uuid({ description: 'an active supplier of this business (not deleted)' }),
    currency: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 3,
        description:
          "ISO 4217 code (any letter case, stored upper case); default the supplier's currency. Receipts post the line's unit cost to the stock ledger as it is (no conversion).",
      }),
    ),
    expectedDate: Type.Optional(
      Nullable(
        Type.String({
          format: 'date',
          description: `the day the goods are expected (yyyy-mm-dd); a Submitted or PartiallyReceived order is overdue after it (in the business's time zone); ${BUSINESS_DATE_RULE}`,
        }),
      ),
    ),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    lines: Type.Array(PurchaseOrderLineInput, {
      minItems: 1,
      maxItems: 500,
      description: 'numbered 1..n in the order sent; one line per product',
    }),
  },
  {
    title: 'PurchaseOrderRequest',
    description:
      'Creates a Draft, or (PUT) replaces a Draft and all its lines. The total is computed by the server from the lines.',
  },
)
export type PurchaseOrderRequest = Static<typeof PurchaseOrderRequest>

export const PurchaseOrderParams = Type.Object({ purchaseOrderId: Uuid() })

export const PurchaseOrderLineResponse = Type.Object({
  id: Uuid(),
  lineNumber: Type.Integer(),
  productId: Uuid(),
  product: Type.Object({ id: Uuid(), sku: Type.String(), name: Type.String() }),
  quantity: Type.Number({ description: 'ordered' }),
  unitCost: Type.Number(),
  lineTotal: Type.Number({ description: 'quantity × unitCost, rounded to 4 decimal places' }),
  receivedQuantity: Type.Number({ description: 'received so far, net of reversed receipts' }),
  outstandingQuantity: Type.Number({ description: 'quantity - receivedQuantity, never below 0' }),
})
export type PurchaseOrderLineResponse = Static<typeof PurchaseOrderLineResponse>

export const PurchaseOrderResponse = Type.Object(
  {
    id: Uuid(),
    businessId: Uuid(),
    number: Type.String({ description: 'PO-000001, per business' }),
    supplierId: Uuid(),
    supplier: Type.Object(
      { id: Uuid(), code: Type.String(), name: Type.String() },
      { description: 'shown even if since deleted' },
    ),
    status: PurchaseOrderStatusType,
    currency: Type.String(),
    expectedDate: Nullable(Type.String({ format: 'date' })),
    isOverdue: Type.Boolean({
      description: "Submitted or PartiallyReceived and past expectedDate (today in the business's time zone)",
    }),
    notes: Nullable(Type.String()),
    lines: Type.Array(PurchaseOrderLineResponse),
    total: Type.Number({ description: 'sum of the line totals, computed by the server' }),
    receivedTotal: Type.Number({ description: 'sum of receivedQuantity × unitCost, 4 decimal places' }),
    submittedAt: Nullable(DateTime()),
    receivedAt: Nullable(DateTime({ description: 'when every line was (last) fully received' })),
    closedAt: Nullable(DateTime()),
    cancelledAt: Nullable(DateTime()),
    dateCreated: DateTime(),
    dateModified: DateTime(),
  },
  { title: 'PurchaseOrderResponse' },
)
export type PurchaseOrderResponse = Static<typeof PurchaseOrderResponse>

export const ReorderDraftsRequest = Type.Object(
  {
    supplierId: Type.Optional(
      Nullable(
        Uuid({
          description:
            'only this supplier: one draft of the suggested products it has terms for; omitted: one draft per preferred supplier',
        }),
      ),
    ),
  },
  { title: 'ReorderDraftsRequest' },
)
export type ReorderDraftsRequest = Static<typeof ReorderDraftsRequest>

export const ReorderDraftsResponse = Type.Object(
  {
    purchaseOrders: Type.Array(PurchaseOrderResponse, {
      description: 'the Draft purchase orders created, one per supplier; empty when nothing needs ordering',
    }),
  },
  { title: 'ReorderDraftsResponse' },
)
export type ReorderDraftsResponse = Static<typeof ReorderDraftsResponse>

export const PurchaseOrderFiguresResponse = Type.Object(
  {
    byStatus: Type.Object(Object.fromEntries(PURCHASE_ORDER_STATUSES.map((name) => [name, Type.Integer()])), {
      description: 'purchase orders per current status; every status present, 0 included',
    }),
    openCount: Type.Integer({ description: 'Submitted and PartiallyReceived orders: goods still expected' }),
    overdueCount: Type.Integer({
      description: "open orders past their expected date (today in the business's time zone)",
    }),
    openValues: Type.Array(
      Type.Object({
        currency: Type.String(),
        count: Type.Integer({ description: 'open orders in this currency' }),
        total: Type.Number({ description: 'sum of their totals' }),
        outstanding: Type.Number({
          description: 'value still to receive: outstanding quantity × unit cost, 4 decimal places',
        }),
      }),
      { description: 'open orders per currency (amounts in different currencies are not summed together)' },
    ),
  },
  { title: 'PurchaseOrderFiguresResponse' },
)
export type PurchaseOrderFiguresResponse = Static<typeof PurchaseOrderFiguresResponse>
