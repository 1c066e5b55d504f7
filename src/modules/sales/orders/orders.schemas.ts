import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { BUSINESS_DATE_RULE } from '../../../http/business-dates.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const ORDER_STATUSES = ['Draft', 'Confirmed', 'Fulfilled', 'Cancelled', 'PartiallyFulfilled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

export const OrderStatusType = EnumType(ORDER_STATUSES, {
  description:
    'Draft -> Confirmed -> Fulfilled; Draft or Confirmed -> Cancelled. Dispatching shipped lines moves a Confirmed order to PartiallyFulfilled or Fulfilled (PartiallyFulfilled -> Fulfilled).',
})

/** Largest quantity or unit price accepted; with 4 decimals the line and order totals stay within numeric(18,4). */
export const MAX_AMOUNT = 1_000_000_000

export const OrderLineInput = Type.Object({
  productId: Type.Optional(
    Nullable(Uuid({ description: 'the product ordered; productId or description is required' })),
  ),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  quantity: Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: 'greater than 0, at most 4 decimal places',
  }),
  unitPrice: Type.Number({
    minimum: 0,
    maximum: MAX_AMOUNT,
    description: 'in the order currency, 0 or more, at most 4 decimal places',
  }),
})
export type OrderLineInput = Static<typeof OrderLineInput>

const orderFields = {
  customerId: Uuid({ description: 'a customer of this business that is not deleted' }),
  orderDate: Type.Optional(
    DateTime({
      description: `defaults to now on create; kept as is when omitted on update; ${BUSINESS_DATE_RULE}`,
    }),
  ),
  currency: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 3,
      description:
        "ISO 4217 code (any letter case, stored upper case); defaults to the business's currency on create, kept as is when omitted on update",
    }),
  ),
  deliveryAddress: Type.Optional(Nullable(AddressInput)),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  lines: Type.Array(OrderLineInput, {
    minItems: 1,
    maxItems: 500,
    description: 'numbered 1..n in the order sent; the order total is computed by the server',
  }),
}

export const CreateOrderRequest = Type.Object(orderFields, {
  description: 'A `total` sent by the client is ignored: the server computes it from the lines.',
})
export type CreateOrderRequest = Static<typeof CreateOrderRequest>

export const UpdateOrderRequest = Type.Object(orderFields, {
  description:
    'Replaces the editable fields and all lines (deliveryAddress and notes become null when omitted). Allowed while the order is Draft or Confirmed.',
})
export type UpdateOrderRequest = Static<typeof UpdateOrderRequest>

export const OrderParams = Type.Object({ orderId: Uuid() })

export const OrderLineResponse = Type.Object({
  id: Uuid(),
  lineNumber: Type.Integer(),
  productId: Nullable(Uuid()),
  description: Nullable(Type.String()),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  lineTotal: Type.Number({ description: 'quantity × unitPrice, rounded to 4 decimal places' }),
})
export type OrderLineResponse = Static<typeof OrderLineResponse>

export const OrderResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  code: Type.String({ description: 'ORD-000001, per business' }),
  customerId: Uuid(),
  customer: Type.Object({ id: Uuid(), name: Type.String() }, { description: 'shown even if since deleted' }),
  status: OrderStatusType,
  orderDate: DateTime(),
  currency: Type.String(),
  deliveryAddress: Nullable(AddressOutput),
  notes: Nullable(Type.String()),
  lines: Type.Array(OrderLineResponse),
  total: Type.Number({ description: 'sum of the line totals, computed by the server' }),
  returnedValue: Type.Number({
    description:
      'the credit of its returns received back or written off (GET /api/v1/orders/{id}/returns): their quantities × the order lines’ unit prices',
  }),
  confirmedAt: Nullable(DateTime()),
  fulfilledAt: Nullable(DateTime()),
  cancelledAt: Nullable(DateTime()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type OrderResponse = Static<typeof OrderResponse>
