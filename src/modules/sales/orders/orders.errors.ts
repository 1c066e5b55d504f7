import { conflict, invalidField, invalidTransition } from '../../../errors.js'
import type { OrderStatus } from './orders.schemas.js'

/** The orders module's error codes (tests assert these, never the message). */
export { orderNotFound } from '../order-errors.js'

export const customerNotAvailable = () =>
  invalidField('customerId', 'must be a customer of this business that is not deleted')

export const orderNotEditable = (status: OrderStatus) =>
  conflict('order_not_editable', `A ${status} order cannot be changed; only Draft and Confirmed orders can.`)

export const invalidOrderTransition = (
  from: OrderStatus,
  to: OrderStatus,
  allowedFrom: readonly OrderStatus[],
) => invalidTransition('An order', from, to, allowedFrom)
