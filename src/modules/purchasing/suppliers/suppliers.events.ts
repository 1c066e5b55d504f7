import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const SupplierCreatedPayload = Type.Object(
  { supplierId: Uuid(), name: Type.String() },
  { title: 'SupplierCreatedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    SupplierCreated: Static<typeof SupplierCreatedPayload>
  }
}

export const supplierEvents = defineEvents({
  SupplierCreated: {
    payload: SupplierCreatedPayload,
    description: 'A supplier was added.',
    notification: {
      content: ({ payload }) => ({
        title: 'Supplier added',
        message: `${payload.name} was added as a supplier.`,
        level: 'Info',
        priority: 'Medium',
        entityType: 'Supplier',
        entityId: payload.supplierId,
        actionLink: `/api/v1/suppliers/${payload.supplierId}`,
      }),
    },
    webhook: { type: 'supplier.created', description: 'A supplier was added.', resourceField: 'supplierId' },
  },
})
