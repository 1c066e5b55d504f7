import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { type DomainEvent, defineEvents } from '../../../platform/domain-events.js'

const returnFields = {
  returnId: Uuid(),
  number: Type.String({ description: 'RMA-000001' }),
  orderId: Nullable(Uuid({ description: 'the order credited' })),
  shipmentId: Nullable(Uuid({ description: 'the shipment it was requested against, if one' })),
  customerId: Nullable(Uuid()),
  value: Type.Number({ description: 'the credit: quantity × the order line’s unit price, summed' }),
}

export const ReturnRequestedPayload = Type.Object(
  {
    ...returnFields,
    reason: Type.String(),
    lines: Type.Array(Type.Object({ productId: Uuid(), quantity: Type.Number() }), {
      description: 'what the customer sends back, per product',
    }),
  },
  { title: 'ReturnRequestedPayload' },
)

export const ReturnReceivedPayload = Type.Object(
  {
    ...returnFields,
    receivedAt: DateTime({ description: 'the ledger date the goods came back' }),
    lines: Type.Array(Type.Object({ productId: Uuid(), quantity: Type.Number(), unitCost: Type.Number() }), {
      description: 'what came back into stock, at the cost it left with',
    }),
  },
  { title: 'ReturnReceivedPayload' },
)

export const ReturnWrittenOffPayload = Type.Object(
  {
    ...returnFields,
    writtenOffAt: DateTime({ description: 'when it was written off' }),
  },
  { title: 'ReturnWrittenOffPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    ReturnRequested: Static<typeof ReturnRequestedPayload>
    ReturnReceived: Static<typeof ReturnReceivedPayload>
    ReturnWrittenOff: Static<typeof ReturnWrittenOffPayload>
  }
}

/** A return is shown on its order when it has one, else on its shipment. */
const entityOf = ({ payload }: DomainEvent<'ReturnRequested' | 'ReturnReceived' | 'ReturnWrittenOff'>) =>
  payload.orderId
    ? { entityType: 'Order', entityId: payload.orderId }
    : { entityType: 'Shipment', entityId: payload.shipmentId }

const returnLink = (id: string) => `/api/v1/returns/${id}`

export const returnEvents = defineEvents({
  ReturnRequested: {
    payload: ReturnRequestedPayload,
    description: 'A customer asked to send back delivered goods (a return, RMA).',
    notification: {
      content: (event) => ({
        title: 'Return requested',
        message: `Return ${event.payload.number} was requested: ${event.payload.lines.length} product(s), ${event.payload.value} to credit. ${event.payload.reason}`,
        level: 'Info',
        priority: 'Medium',
        ...entityOf(event),
        actionLink: returnLink(event.payload.returnId),
      }),
    },
    webhook: {
      type: 'return.requested',
      description: 'A return (RMA) of delivered goods was requested.',
      resourceField: 'returnId',
    },
  },
  ReturnReceived: {
    payload: ReturnReceivedPayload,
    description: 'The goods of a return came back into stock at the cost they left with.',
    notification: {
      content: (event) => ({
        title: 'Return received',
        message: `Return ${event.payload.number} came back into stock; ${event.payload.value} is credited on its order.`,
        level: 'Success',
        priority: 'Medium',
        ...entityOf(event),
        actionLink: returnLink(event.payload.returnId),
      }),
    },
    webhook: {
      type: 'return.received',
      description: 'The goods of a return came back into stock (at the cost they left with).',
      resourceField: 'returnId',
    },
  },
  ReturnWrittenOff: {
    payload: ReturnWrittenOffPayload,
    description: 'A return was credited without its goods coming back into stock.',
    notification: {
      content: (event) => ({
        title: 'Return written off',
        message: `Return ${event.payload.number} was written off; ${event.payload.value} is credited on its order and nothing came back into stock.`,
        level: 'Warning',
        priority: 'Medium',
        ...entityOf(event),
        actionLink: returnLink(event.payload.returnId),
      }),
    },
    webhook: {
      type: 'return.written_off',
      description: 'A return (RMA) was credited without its goods coming back into stock.',
      resourceField: 'returnId',
    },
  },
})
