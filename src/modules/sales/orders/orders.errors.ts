import { conflict, invalidField, invalidTransition, notFound } from '../../../errors.js'
import type { OrderStatus } from './orders.schemas.js'

/** The orders module's error codes (tests assert these, never the message). */
export const orderNotFound = () => notFound('order_not_found', 'No order of this business has this id.')

export const customerNotAvailable = () =>
  invalidField('customerId', 'must be a customer of this business that is not deleted')

export const orderNotEditable = (status: OrderStatus) =>
  conflict('order_not_editable', `A ${status} order cannot be changed; only Draft and Confirmed orders can.`)

export const invalidOrderTransition = (
  from: OrderStatus,
  to: OrderStatus,
  allowedFrom: readonly OrderStatus[],
) => invalidTransition('An order', from, to, allowedFrom)
