import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const PurchaseOrderSubmittedPayload = Type.Object(
  {
    purchaseOrderId: Uuid(),
    number: Type.String(),
    supplierId: Uuid(),
    expectedDate: Nullable(Type.String({ format: 'date' })),
  },
  { title: 'PurchaseOrderSubmittedPayload' },
)

export const PurchaseOrderOverduePayload = Type.Object(
  {
    purchaseOrderId: Uuid(),
    number: Type.String(),
    supplierId: Uuid(),
    expectedDate: Type.String({ format: 'date' }),
  },
  { title: 'PurchaseOrderOverduePayload' },
)

export const PurchaseOrderReceivedPayload = Type.Object(
  {
    purchaseOrderId: Uuid(),
    number: Type.String(),
    supplierId: Uuid(),
    status: Type.String({ description: 'Received, or PartiallyReceived while goods are outstanding' }),
    receiptId: Uuid(),
    lines: Type.Array(Type.Object({ productId: Uuid(), quantity: Type.Number() }, { title: 'ReceivedLine' })),
  },
  { title: 'PurchaseOrderReceivedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    PurchaseOrderSubmitted: Static<typeof PurchaseOrderSubmittedPayload>
    PurchaseOrderOverdue: Static<typeof PurchaseOrderOverduePayload>
    PurchaseOrderReceived: Static<typeof PurchaseOrderReceivedPayload>
  }
}

const orderLink = (id: string) => `/api/v1/purchase-orders/${id}`

export const purchaseOrderEvents = defineEvents({
  PurchaseOrderSubmitted: {
    payload: PurchaseOrderSubmittedPayload,
    description: 'A purchase order was submitted to its supplier.',
    notification: {
      content: ({ payload }) => ({
        title: 'Purchase order submitted',
        message: `Purchase order ${payload.number} was submitted${payload.expectedDate ? `, expected ${payload.expectedDate}` : ''}.`,
        level: 'Info',
        priority: 'Medium',
        entityType: 'PurchaseOrder',
        entityId: payload.purchaseOrderId,
        actionLink: orderLink(payload.purchaseOrderId),
      }),
    },
    webhook: {
      type: 'purchase_order.submitted',
      description: 'A purchase order was submitted to its supplier.',
      resourceField: 'purchaseOrderId',
    },
  },
  PurchaseOrderReceived: {
    payload: PurchaseOrderReceivedPayload,
    description: 'Goods were received against a purchase order.',
    notification: {
      content: ({ payload }) => {
        const full = payload.status === 'Received'
        return {
          title: full ? 'Purchase order received' : 'Purchase order partly received',
          message: full
            ? `Purchase order ${payload.number} is fully received.`
            : `Goods of purchase order ${payload.number} were received; some are still outstanding.`,
          level: full ? 'Success' : 'Info',
          priority: 'Medium',
          entityType: 'PurchaseOrder',
          entityId: payload.purchaseOrderId,
          actionLink: orderLink(payload.purchaseOrderId),
        }
      },
    },
    webhook: {
      type: 'purchase_order.received',
      description: 'Goods were received against a purchase order (partly or in full).',
      resourceField: 'purchaseOrderId',
    },
  },
  PurchaseOrderOverdue: {
    payload: PurchaseOrderOverduePayload,
    description: 'A purchase order passed its expected date without being fully received.',
    notification: {
      content: ({ payload }) => ({
        title: 'Purchase order overdue',
        message: `Purchase order ${payload.number} was expected on ${payload.expectedDate} and is not fully received.`,
        level: 'Warning',
        priority: 'High',
        entityType: 'PurchaseOrder',
        entityId: payload.purchaseOrderId,
        actionLink: orderLink(payload.purchaseOrderId),
      }),
    },
  },
})
