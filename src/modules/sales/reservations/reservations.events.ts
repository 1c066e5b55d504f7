import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

const ReservedLine = Type.Object({
  orderLineId: Uuid(),
  lineNumber: Type.Integer(),
  productId: Uuid(),
  reserved: Type.Number(),
  backordered: Type.Number(),
})

export const OrderReservedPayload = Type.Object(
  {
    orderId: Uuid(),
    code: Type.String(),
    customerId: Uuid(),
    lines: Type.Array(ReservedLine, { description: 'the lines of stocked products, in line order' }),
  },
  { title: 'OrderReservedPayload' },
)

export const OrderBackorderedPayload = Type.Object(
  {
    orderId: Uuid(),
    code: Type.String(),
    customerId: Uuid(),
    lines: Type.Array(ReservedLine, { description: 'the lines confirmed short of stock' }),
  },
  { title: 'OrderBackorderedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    OrderReserved: Static<typeof OrderReservedPayload>
    OrderBackordered: Static<typeof OrderBackorderedPayload>
  }
}

const sum = (lines: readonly { backordered: number }[]) =>
  Math.round(lines.reduce((total, l) => total + l.backordered, 0) * 10_000) / 10_000

export const reservationEvents = defineEvents({
  OrderReserved: {
    payload: OrderReservedPayload,
    description: "A confirmed order reserved its products' stock.",
    webhook: {
      type: 'order.reserved',
      description: 'A confirmed (or edited) order reserved stock for its product lines.',
      resourceField: 'orderId',
    },
  },
  OrderBackordered: {
    payload: OrderBackorderedPayload,
    description: 'An order was confirmed short of stock; the short part is backordered.',
    notification: {
      content: ({ payload }) => ({
        title: 'Order backordered',
        message: `Order ${payload.code} was confirmed short of stock: ${payload.lines.length} line(s), ${sum(payload.lines)} unit(s) on backorder.`,
        level: 'Warning',
        priority: 'Medium',
        entityType: 'Order',
        entityId: payload.orderId,
        actionLink: `/api/v1/orders/${payload.orderId}`,
      }),
    },
    webhook: {
      type: 'order.backordered',
      description: 'An order was confirmed short of stock (lines and quantities backordered).',
      resourceField: 'orderId',
    },
  },
})
