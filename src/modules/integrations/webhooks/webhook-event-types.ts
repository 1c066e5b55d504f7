import type { DomainEvent } from '../../../platform/domain-events.js'

/** A webhook event type: what it is called on the wire, the domain event it comes from, what it says. */
interface EventTypeSpec {
  type: string
  domainEvent: string
  description: string
  /** The payload field naming the resource; events of one resource reach an endpoint in order. */
  resourceField: string
}

export const EVENT_TYPE_SPECS: readonly EventTypeSpec[] = [
  {
    type: 'order.created',
    domainEvent: 'OrderCreated',
    description: 'A sales order was created.',
    resourceField: 'orderId',
  },
  {
    type: 'order.status_changed',
    domainEvent: 'OrderStatusChanged',
    description: 'A sales order moved to another status (from, to).',
    resourceField: 'orderId',
  },
  {
    type: 'shipment.status_changed',
    domainEvent: 'ShipmentStatusChanged',
    description: 'A shipment moved to another status through its status routes (from, to).',
    resourceField: 'shipmentId',
  },
  {
    type: 'delivery_plan.dispatched',
    domainEvent: 'PlanDispatched',
    description: 'A delivery plan was dispatched (its shipments are in transit).',
    resourceField: 'deliveryPlanId',
  },
  {
    type: 'stock.below_reorder_level',
    domainEvent: 'StockAtReorderLevel',
    description: "A product's stock fell to or below its reorder level.",
    resourceField: 'productId',
  },
  {
    type: 'work_order.completed',
    domainEvent: 'WorkOrderCompleted',
    description: 'A work order was completed and its output received into stock.',
    resourceField: 'workOrderId',
  },
  {
    type: 'purchase_order.submitted',
    domainEvent: 'PurchaseOrderSubmitted',
    description: 'A purchase order was submitted to its supplier.',
    resourceField: 'purchaseOrderId',
  },
  {
    type: 'purchase_order.received',
    domainEvent: 'PurchaseOrderReceived',
    description: 'Goods were received against a purchase order (partly or in full).',
    resourceField: 'purchaseOrderId',
  },
  {
    type: 'transfer_order.shipped',
    domainEvent: 'TransferOrderShipped',
    description: 'A transfer order left its source business.',
    resourceField: 'transferOrderId',
  },
  {
    type: 'transfer_order.received',
    domainEvent: 'TransferOrderReceived',
    description: 'A transfer order was received at its destination.',
    resourceField: 'transferOrderId',
  },
  {
    type: 'supplier.created',
    domainEvent: 'SupplierCreated',
    description: 'A supplier was added.',
    resourceField: 'supplierId',
  },
]

/** The event type a test-send carries; never written to the outbox. */
export const TEST_EVENT_TYPE = 'webhook.test'

export const EVENT_TYPES: readonly string[] = EVENT_TYPE_SPECS.map((spec) => spec.type)

const BY_DOMAIN_EVENT = new Map(EVENT_TYPE_SPECS.map((spec) => [spec.domainEvent, spec]))

/** What a domain event becomes on the wire, or undefined for events no webhook carries. */
export function webhookEventOf(event: DomainEvent) {
  const spec = BY_DOMAIN_EVENT.get(event.type)
  if (!spec) return undefined
  const resourceId = event.payload[spec.resourceField]
  return {
    type: spec.type,
    resourceKey: `${spec.resourceField}:${typeof resourceId === 'string' ? resourceId : ''}`,
    data: { businessId: event.businessId, ...event.payload },
  }
}
