import { AppError, invalidTransition, notFound } from '../../../errors.js'
import type { ReturnStatus } from './returns.schemas.js'

/** The returns module's error codes (tests assert these, never the message). */
export const returnNotFound = () => notFound('return_not_found', 'No return of this business has this id.')

export { orderNotFound } from '../order-errors.js'

export const shipmentNotFound = () =>
  notFound('shipment_not_found', 'No shipment of this business has this id.')

export const invalidReturnTransition = (
  from: ReturnStatus,
  to: ReturnStatus,
  allowedFrom: readonly ReturnStatus[],
) => invalidTransition('A return', from, to, allowedFrom)

/** Goods come back only from a shipment that reached its customer. */
export const shipmentNotDelivered = (status: string) =>
  new AppError(
    409,
    'shipment_not_delivered',
    `A ${status} shipment takes no return; only a Delivered one does.`,
    [{ field: 'shipmentId', message: `${status} is not Delivered` }],
  )

/** An archived product takes no stock movements, so the goods of this line cannot be received back. */
export const productArchived = (lineNumber: number, index: number) =>
  new AppError(409, 'product_archived', `The product of line ${lineNumber} is archived.`, [
    { field: `lines.${index}.productId`, message: 'is archived, which takes no stock movements' },
  ])
