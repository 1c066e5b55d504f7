import {
  AppError,
  conflict,
  invalidField,
  invalidTransition,
  notFound,
  type Reason,
} from '../../../errors.js'
import type { PurchaseOrderStatus } from './purchase-orders.schemas.js'

/** The purchase orders module's error codes (tests assert these, never the message). */
export const purchaseOrderNotFound = () =>
  notFound('purchase_order_not_found', 'No purchase order of this business has this id.')

export const receiptNotFound = () =>
  notFound('purchase_receipt_not_found', 'This purchase order has no receipt with this id.')

export const invalidPurchaseOrderTransition = (
  from: PurchaseOrderStatus,
  to: PurchaseOrderStatus,
  allowedFrom: readonly PurchaseOrderStatus[],
) => invalidTransition('A purchase order', from, to, allowedFrom)

export const purchaseOrderNotEditable = (status: string) =>
  conflict(
    'purchase_order_not_editable',
    `A ${status} purchase order cannot be changed or deleted; only a Draft can.`,
  )

export const supplierNotAvailable = () =>
  invalidField('supplierId', 'must be an active supplier of this business')

export const receiptAlreadyReversed = () =>
  conflict('purchase_receipt_reversed', 'This receipt has already been reversed.')

/** Lines that would receive more than ordered (plus the tolerance), each named by its row. */
export const overReceipt = (reasons: readonly Reason[]) =>
  new AppError(
    409,
    'over_receipt',
    'A line would receive more than was ordered (beyond the receipt tolerance).',
    reasons,
  )

/** Lines naming a product that no longer takes stock (archived since the order was made). */
export const productsNotReceivable = (reasons: readonly Reason[]) =>
  new AppError(409, 'product_archived', 'An archived product takes no stock movements.', reasons)

/** Lines naming a product that became a Service since the order was made: a Service holds no stock. */
export const servicesNotReceivable = (reasons: readonly Reason[]) =>
  new AppError(409, 'service_holds_no_stock', 'A Service product holds no stock.', reasons)
