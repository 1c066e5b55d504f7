import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const OrderCreatedPayload = Type.Object(
  {
    orderId: Uuid(),
    code: Type.String(),
    customerId: Uuid(),
    status: Type.String({ description: 'An OrderStatus name' }),
    currency: Type.String(),
    total: Type.Number(),
  },
  { title: 'OrderCreatedPayload' },
)

export const OrderStatusChangedPayload = Type.Object(
  {
    orderId: Uuid(),
    code: Type.String(),
    customerId: Uuid(),
    from: Type.String({ description: 'An OrderStatus name' }),
    to: Type.String({ description: 'An OrderStatus name' }),
  },
  { title: 'OrderStatusChangedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    OrderCreated: Static<typeof OrderCreatedPayload>
    OrderStatusChanged: Static<typeof OrderStatusChangedPayload>
  }
}

export const orderEvents = defineEvents({
  OrderCreated: {
    payload: OrderCreatedPayload,
    description: 'A sales order was created.',
    webhook: { type: 'order.created', description: 'A sales order was created.', resourceField: 'orderId' },
  },
  OrderStatusChanged: {
    payload: OrderStatusChangedPayload,
    description: 'A sales order moved to another status.',
    webhook: {
      type: 'order.status_changed',
      description: 'A sales order moved to another status (from, to).',
      resourceField: 'orderId',
    },
  },
})
