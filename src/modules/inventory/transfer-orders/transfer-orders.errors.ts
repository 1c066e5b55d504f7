import { AppError, conflict, invalidTransition, notFound } from '../../../errors.js'
import type { TransferOrderStatus } from './transfer-orders.schemas.js'

/** The transfer orders module's error codes (tests assert these, never the message). */
export const transferOrderNotFound = () =>
  notFound('transfer_order_not_found', 'No transfer order from or to this business has this id.')

export const destinationBusinessNotFound = () =>
  notFound('business_not_found', 'destinationBusinessId names no business of this organisation.')

export const invalidTransferTransition = (
  from: TransferOrderStatus,
  to: TransferOrderStatus,
  allowedFrom: readonly TransferOrderStatus[],
) => invalidTransition('A transfer order', from, to, allowedFrom)

export const transferOrderNotEditable = (status: string) =>
  conflict('transfer_order_not_editable', `A ${status} transfer order cannot be changed; only a Draft can.`)

/** The other side of the transfer asked for what only one side does (the source ships, the destination receives). */
export const wrongSide = (action: string, side: 'source' | 'destination') =>
  new AppError(
    409,
    'transfer_order_wrong_business',
    `Only the ${side} business of a transfer order can ${action} it; send its id as X-Business-Id.`,
    [{ field: 'X-Business-Id', message: `must be the ${side} business to ${action}` }],
  )

/** A product that cannot move any more (archived or a Service since the line was written), named by its line. */
export const lineProductUnusable = (field: string, why: string) =>
  new AppError(409, 'product_not_transferable', `The product of ${field} ${why}.`, [{ field, message: why }])

/** A receipt of more than is still in transit on a line. */
export const overReceipt = (field: string, inTransit: number) =>
  new AppError(
    409,
    'receipt_exceeds_in_transit',
    `${field} is more than the ${inTransit} still in transit on the line.`,
    [{ field, message: `at most ${inTransit} is in transit` }],
  )

export const transferHasShipment = () =>
  conflict('transfer_order_has_shipment', 'This transfer order has a shipment already (shipmentId).')

export const transferNotShippable = (status: string) =>
  new AppError(
    409,
    'transfer_order_not_shippable',
    `A ${status} transfer order gets no shipment; only a Draft or Shipped one does.`,
    [{ field: 'status', message: `${status} is neither Draft nor Shipped` }],
  )
