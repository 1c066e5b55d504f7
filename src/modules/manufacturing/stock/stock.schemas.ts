import { type Static, Type } from '@sinclair/typebox'
import { LEDGER_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { AsOfDate } from '../as-of.js'
import { MAX_AMOUNT } from '../decimals.js'

export const MOVEMENT_TYPES = ['Receipt', 'Issue', 'Adjustment'] as const
export type MovementType = (typeof MOVEMENT_TYPES)[number]
/**
 * The ledger's entry types. Receipt, Issue and Adjustment are posted by hand; the others by the
 * documents that move stock: work orders, purchase-order receipts (and their reversals), the
 * two sides of a transfer between businesses, and sales (a dispatched shipment's lines, and goods
 * that come back).
 */
export const ENTRY_TYPES = [
  'Receipt',
  'Issue',
  'Adjustment',
  'WorkOrderIssue',
  'WorkOrderReceipt',
  'PurchaseReceipt',
  'PurchaseReceiptReversal',
  'TransferIssue',
  'TransferReceipt',
  'Sale',
  'SaleReturn',
] as const

export const StockMovementRequest = Type.Object(
  {
    type: EnumType(MOVEMENT_TYPES),
    quantity: Type.Number({
      minimum: -MAX_AMOUNT,
      maximum: MAX_AMOUNT,
      description:
        'Receipt and Issue: greater than 0 (the server signs an issue). Adjustment: signed, not 0. At most 4 decimal places.',
    }),
    unitCost: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          maximum: MAX_AMOUNT,
          description:
            'Required on a Receipt; allowed on a positive Adjustment (else it moves at the moving average). At most 6 decimal places.',
        }),
      ),
    ),
    effectiveDate: Type.Optional(
      DateTime({
        description: `when the movement happened: the stock ledger records it at that date (a back-dated movement re-values the later entries); defaults to now, may lie in the past: ${LEDGER_DATE_RULE}`,
      }),
    ),
    reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    reference: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  {
    description:
      'A back-dated movement re-values every later entry in the same transaction. A movement that would take the balance below zero at any point in time is a 409 stock_shortfall naming the date and the shortfall, unless the setting stock.allowNegative is true.',
  },
)
export type StockMovementRequest = Static<typeof StockMovementRequest>

export const LedgerEntryResponse = Type.Object({
  id: Uuid(),
  productId: Uuid(),
  type: EnumType(ENTRY_TYPES),
  quantity: Type.Number({ description: 'signed' }),
  unitCost: Type.Number({
    description:
      'receipts: their cost; other movements: the moving average at their date (carried exactly, shown to 10 decimal places)',
  }),
  value: Type.Number({ description: 'quantity × unitCost, signed, 4 decimal places' }),
  effectiveDate: DateTime(),
  reason: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  workOrderId: Nullable(Uuid()),
  balance: Type.Number({ description: 'running balance after this entry, in effective-date order' }),
  averageCost: Type.Number({
    description:
      'moving-average cost after this entry: the running value over the running balance, carried exactly, shown to 10 decimal places',
  }),
  createdByUserId: Nullable(Uuid()),
  dateCreated: DateTime(),
})
export type LedgerEntryResponse = Static<typeof LedgerEntryResponse>

export const StockQuery = Type.Object({
  asOfDate: Type.Optional(AsOfDate('when to read the stock at')),
})

export const StockResponse = Type.Object({
  productId: Uuid(),
  asOfDate: DateTime(),
  onHand: Type.Number(),
  unitCost: Type.Number({ description: 'moving-average cost at that instant, 10 decimal places' }),
  value: Type.Number({
    description:
      'the running total value at that instant (receipts at their cost, everything else at the moving average; carried exactly), 4 decimal places',
  }),
})
export type StockResponse = Static<typeof StockResponse>

/**
 * Rows per bulk request. At most about 1 KB a row (a UUID, the numbers, a date, and a reason and a
 * reference at their longest in ASCII), so a full request fits the default 1 MiB body limit.
 */
export const MAX_BULK_MOVEMENTS = 1_000

export const BulkStockMovementRow = Type.Object(
  {
    productId: Uuid({ description: 'a stocked product of this business' }),
    ...StockMovementRequest.properties,
  },
  { title: 'BulkStockMovementRow' },
)
export type BulkStockMovementRow = Static<typeof BulkStockMovementRow>

export const BulkStockMovementsRequest = Type.Object(
  {
    movements: Type.Array(BulkStockMovementRow, {
      minItems: 1,
      maxItems: MAX_BULK_MOVEMENTS,
      description: `1 to ${MAX_BULK_MOVEMENTS} movements, of one product or several. Entries of the same product and instant keep the order they are sent in.`,
    }),
  },
  {
    title: 'BulkStockMovementsRequest',
    description:
      'Opening balances and history: every row is checked first, then all rows are posted in one transaction and each product is re-valued once. All or nothing: one bad row refuses the whole request and nothing is posted.',
  },
)
export type BulkStockMovementsRequest = Static<typeof BulkStockMovementsRequest>

export const BulkProductStock = Type.Object(
  {
    productId: Uuid(),
    posted: Type.Integer({ description: 'rows of this request posted to this product' }),
    revalued: Type.Integer({
      description: 'ledger entries whose balance, average or value changed, the new ones included',
    }),
    onHand: Type.Number({ description: 'stock on hand after its last entry' }),
    averageCost: Type.Number({ description: 'moving-average cost after its last entry, 10 decimal places' }),
    value: Type.Number({ description: 'running total value after its last entry, 4 decimal places' }),
  },
  { title: 'BulkProductStock' },
)

export const BulkStockMovementsResponse = Type.Object(
  {
    posted: Type.Integer({ description: 'rows posted (all of them)' }),
    products: Type.Array(BulkProductStock, { description: 'each product posted to, in id order' }),
  },
  { title: 'BulkStockMovementsResponse' },
)
export type BulkStockMovementsResponse = Static<typeof BulkStockMovementsResponse>
