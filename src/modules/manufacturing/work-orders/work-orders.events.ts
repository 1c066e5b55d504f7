import { type Static, Type } from '@sinclair/typebox'
import { Uuid } from '../../../http/schema-helpers.js'
import { defineEvents } from '../../../platform/domain-events.js'

export const WorkOrderCompletedPayload = Type.Object(
  { workOrderId: Uuid(), code: Type.String(), productId: Uuid(), quantityProduced: Type.Number() },
  { title: 'WorkOrderCompletedPayload' },
)

declare module '../../../platform/domain-events.js' {
  interface DomainEventPayloads {
    WorkOrderCompleted: Static<typeof WorkOrderCompletedPayload>
  }
}

export const workOrderEvents = defineEvents({
  WorkOrderCompleted: {
    payload: WorkOrderCompletedPayload,
    description: 'A work order was completed and its output received into stock.',
    notification: {
      content: ({ payload }) => ({
        title: 'Work order completed',
        message: `Work order ${payload.code} produced ${payload.quantityProduced}.`,
        level: 'Success',
        priority: 'Medium',
        entityType: 'WorkOrder',
        entityId: payload.workOrderId,
        actionLink: null,
      }),
    },
    webhook: {
      type: 'work_order.completed',
      description: 'A work order was completed and its output received into stock.',
      resourceField: 'workOrderId',
    },
  },
})
