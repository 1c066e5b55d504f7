import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { type DomainEvent, defineEvents } from '../../../platform/domain-events.js'

export const TransferOrderShippedPayload = Type.Object(
  { transferOrderId: Uuid(), number: Type.String(), sourceBusinessId: Uuid(), destinationBusinessId: Uuid() },
  { title: 'TransferOrderShippedPayload' },
)

export const TransferOrderReceivedPayload = Type.Object(
  {
    transferOrderId: Uuid(),
    number: Type.String(),
    sourceBusinessId: Uuid(),
    destinationBusinessId: Uuid(),
    status: Type.String({ description: 'Received, or PartiallyReceived while goods are still in transit' }),
  },
  { title: 'TransferOrderReceivedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    TransferOrderShipped: Static<typeof TransferOrderShippedPayload>
    TransferOrderReceived: Static<typeof TransferOrderReceivedPayload>
  }
}

/** Both businesses of a transfer are told of each step: the one at the other end too. */
const otherEnd = ({ businessId, payload }: DomainEvent<'TransferOrderShipped' | 'TransferOrderReceived'>) =>
  [payload.sourceBusinessId, payload.destinationBusinessId].filter((id) => id !== businessId).slice(0, 1)

const transferLink = (id: string) => `/api/v1/transfer-orders/${id}`

export const transferOrderEvents = defineEvents({
  TransferOrderShipped: {
    payload: TransferOrderShippedPayload,
    description: 'A transfer order left its source business.',
    notification: {
      content: ({ payload }) => ({
        title: 'Transfer shipped',
        message: `Transfer ${payload.number} was shipped; its goods are in transit.`,
        level: 'Info',
        priority: 'Medium',
        entityType: 'TransferOrder',
        entityId: payload.transferOrderId,
        actionLink: transferLink(payload.transferOrderId),
      }),
      alsoNotifies: otherEnd,
    },
    webhook: {
      type: 'transfer_order.shipped',
      description: 'A transfer order left its source business.',
      resourceField: 'transferOrderId',
    },
  },
  TransferOrderReceived: {
    payload: TransferOrderReceivedPayload,
    description: 'Goods of a transfer order were received at its destination.',
    notification: {
      content: ({ payload }) => {
        const full = payload.status === 'Received'
        return {
          title: full ? 'Transfer received' : 'Transfer partly received',
          message: full
            ? `Transfer ${payload.number} was received in full.`
            : `Part of transfer ${payload.number} was received; the rest is still in transit.`,
          level: full ? 'Success' : 'Info',
          priority: 'Medium',
          entityType: 'TransferOrder',
          entityId: payload.transferOrderId,
          actionLink: transferLink(payload.transferOrderId),
        }
      },
      alsoNotifies: otherEnd,
    },
    webhook: {
      type: 'transfer_order.received',
      description: 'A transfer order was received at its destination.',
      resourceField: 'transferOrderId',
    },
  },
})
