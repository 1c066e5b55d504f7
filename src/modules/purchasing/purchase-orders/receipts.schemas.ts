import { type Static, Type } from '@sinclair/typebox'
import { LEDGER_DATE_RULE } from '../../../http/business-dates.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { MAX_AMOUNT, PurchaseOrderStatusType } from './purchase-orders.schemas.js'

export const ReceiptLineInput = Type.Object({
  lineId: Type.Optional(Nullable(Uuid({ description: 'a line of this purchase order; or productId' }))),
  productId: Type.Optional(
    Nullable(Uuid({ description: "the product of one of this purchase order's lines; or lineId" })),
  ),
  quantity: Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: 'received now, greater than 0, at most 4 decimal places',
  }),
})

export const ReceiptRequest = Type.Object(
  {
    effectiveDate: Type.Optional(
      DateTime({
        description: `when the goods arrived: the stock ledger date of the receipt (later entries are re-valued); default now; ${LEDGER_DATE_RULE}`,
      }),
    ),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    lines: Type.Array(ReceiptLineInput, {
      minItems: 1,
      maxItems: 500,
      description: 'each line of the order at most once',
    }),
  },
  {
    title: 'ReceiptRequest',
    description:
      "Receives part or all of some lines of a Submitted or PartiallyReceived order. Each line posts a PurchaseReceipt stock ledger entry at the line's unit cost, all in one transaction. A line may not receive more than it ordered, unless the setting purchasing.receiptTolerancePercent allows that much more (409 over_receipt naming lines.<i>.quantity).",
  },
)
export type ReceiptRequest = Static<typeof ReceiptRequest>

export const ReverseReceiptRequest = Type.Object(
  {
    effectiveDate: Type.Optional(
      DateTime({
        description: `the ledger date of the reversal; default now, not before the receipt; ${LEDGER_DATE_RULE}`,
      }),
    ),
  },
  {
    title: 'ReverseReceiptRequest',
    description:
      'Posts one PurchaseReceiptReversal entry per line (taking the received quantity back out at the moving average of that date, as every outgoing entry does) and reduces the received quantities. 409 stock_shortfall when stock would go below zero at any point from that date.',
  },
)
export type ReverseReceiptRequest = Static<typeof ReverseReceiptRequest>

export const ReceiptParams = Type.Object({ purchaseOrderId: Uuid(), receiptId: Uuid() })

export const ReceiptResponse = Type.Object(
  {
    id: Uuid(),
    purchaseOrderId: Uuid(),
    purchaseOrderNumber: Type.String(),
    purchaseOrderStatus: PurchaseOrderStatusType,
    effectiveDate: DateTime(),
    notes: Nullable(Type.String()),
    lines: Type.Array(
      Type.Object({
        id: Uuid(),
        lineId: Uuid({ description: 'the purchase order line received' }),
        productId: Uuid(),
        quantity: Type.Number(),
        unitCost: Type.Number({ description: "the line's unit cost, posted to the stock ledger" }),
        ledgerEntryId: Uuid({ description: 'the PurchaseReceipt entry' }),
        reversalEntryId: Nullable(Uuid({ description: 'the PurchaseReceiptReversal entry, once reversed' })),
      }),
    ),
    reversedAt: Nullable(DateTime()),
    reversalEffectiveDate: Nullable(DateTime()),
    dateCreated: DateTime(),
  },
  { title: 'PurchaseReceiptResponse' },
)
export type ReceiptResponse = Static<typeof ReceiptResponse>
