import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const StockAtReorderLevelPayload = Type.Object(
  {
    productId: Uuid(),
    sku: Type.String(),
    name: Type.String(),
    onHand: Type.Number({ description: 'The stock after the movement' }),
    reorderLevel: Type.Number(),
  },
  { title: 'StockAtReorderLevelPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    StockAtReorderLevel: Static<typeof StockAtReorderLevelPayload>
  }
}

export const stockEvents = defineEvents({
  StockAtReorderLevel: {
    payload: StockAtReorderLevelPayload,
    description: "A product's stock fell to or below its reorder level.",
    notification: {
      content: ({ payload }) => ({
        title: 'Stock at reorder level',
        message: `${payload.name} (${payload.sku}) is at ${payload.onHand}, reorder level ${payload.reorderLevel}.`,
        level: 'Warning',
        priority: 'High',
        entityType: 'Product',
        entityId: payload.productId,
        actionLink: null,
      }),
    },
    webhook: {
      type: 'stock.below_reorder_level',
      description: "A product's stock fell to or below its reorder level.",
      resourceField: 'productId',
    },
  },
})
