import type { DomainEvent } from '../../platform/domain-events.js'

/** What a notification says; entityType is a DispatchEntityType name. */
export interface NotificationContent {
  title: string
  message: string
  level: 'Standard' | 'Info' | 'Warning' | 'Error' | 'Success' | 'Recommendation'
  priority: 'Low' | 'Medium' | 'High' | 'Maximum'
  entityType: string
  entityId: string | null
  actionLink: string | null
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value))
const uuid = (value: unknown) => (typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value) ? value : null)

/** The notification an event leaves for the business's users, or undefined for events nobody is told about. */
export function contentOf(event: DomainEvent): NotificationContent | undefined {
  const p = event.payload
  const base = { priority: 'Medium' as const, entityType: 'None', entityId: null, actionLink: null }
  switch (event.type) {
    case 'PlanDispatched':
      return {
        ...base,
        title: 'Delivery plan dispatched',
        message: `Delivery plan ${text(p.code)} is on its way.`,
        level: 'Info',
        entityId: uuid(p.deliveryPlanId),
        actionLink: `/api/v1/plans/${text(p.deliveryPlanId)}`,
      }
    case 'PlanCompleted':
      return {
        ...base,
        title: 'Delivery plan completed',
        message: `Delivery plan ${text(p.code)} is complete.`,
        level: 'Success',
        entityId: uuid(p.deliveryPlanId),
        actionLink: `/api/v1/plans/${text(p.deliveryPlanId)}`,
      }
    case 'AutobatchCompleted': {
      const left = (p.leftOut ?? {}) as { noZone?: number; overCapacity?: number; noLocation?: number }
      const leftOut = (left.noZone ?? 0) + (left.overCapacity ?? 0) + (left.noLocation ?? 0)
      return {
        ...base,
        title: 'Autobatch finished',
        message:
          `Delivery plan ${text(p.code)}: ${text(p.assigned)} shipment(s) assigned, ${leftOut} left out` +
          (leftOut > 0
            ? ` (${left.noZone ?? 0} outside the plan's zones, ${left.overCapacity ?? 0} over the vehicle's capacity, ${left.noLocation ?? 0} without coordinates).`
            : '.'),
        level: leftOut > 0 ? 'Recommendation' : 'Success',
        entityId: uuid(p.deliveryPlanId),
        actionLink: `/api/v1/plans/${text(p.deliveryPlanId)}`,
      }
    }
    case 'ShipmentDelivered':
      return {
        ...base,
        title: 'Shipment delivered',
        message: `Shipment ${text(p.code)} was delivered.`,
        level: 'Success',
        entityType: 'Shipment',
        entityId: uuid(p.shipmentId),
        actionLink: `/api/v1/shipments/${text(p.shipmentId)}`,
      }
    case 'ShipmentFailed':
      return {
        ...base,
        title: 'Delivery failed',
        message: `Shipment ${text(p.code)} could not be delivered: ${text(p.reason)}`,
        level: 'Warning',
        priority: 'High',
        entityType: 'Shipment',
        entityId: uuid(p.shipmentId),
        actionLink: `/api/v1/shipments/${text(p.shipmentId)}`,
      }
    case 'WorkOrderCompleted':
      return {
        ...base,
        title: 'Work order completed',
        message: `Work order ${text(p.code)} produced ${text(p.quantityProduced)}.`,
        level: 'Success',
        entityType: 'WorkOrder',
        entityId: uuid(p.workOrderId),
      }
    case 'StockAtReorderLevel':
      return {
        ...base,
        title: 'Stock at reorder level',
        message: `${text(p.name)} (${text(p.sku)}) is at ${text(p.onHand)}, reorder level ${text(p.reorderLevel)}.`,
        level: 'Warning',
        priority: 'High',
        entityType: 'Product',
        entityId: uuid(p.productId),
      }
    case 'ApiKeyCreated':
      return {
        ...base,
        title: 'API key created',
        message: `API key ${text(p.label) || text(p.keyPrefix)} was created.`,
        level: 'Info',
        entityType: 'User',
        entityId: uuid(event.userId),
      }
    case 'ApiKeyRevoked':
      return {
        ...base,
        title: 'API key revoked',
        message: `API key ${text(p.label) || text(p.keyPrefix)} was revoked.`,
        level: 'Warning',
        entityType: 'User',
        entityId: uuid(event.userId),
      }
    case 'CarrierConfigured':
      return {
        ...base,
        title: 'Carrier configured',
        message: `${text(p.name)} is configured for this business.`,
        level: 'Info',
        entityType: 'IntegrationProvider',
        actionLink: `/api/carriers/${text(p.carrierId)}`,
      }
    case 'SupplierCreated':
      return {
        ...base,
        title: 'Supplier added',
        message: `${text(p.name)} was added as a supplier.`,
        level: 'Info',
        entityType: 'Supplier',
        entityId: uuid(p.supplierId),
        actionLink: `/api/v1/suppliers/${text(p.supplierId)}`,
      }
    case 'PurchaseOrderSubmitted':
      return {
        ...base,
        title: 'Purchase order submitted',
        message: `Purchase order ${text(p.number)} was submitted${p.expectedDate ? `, expected ${text(p.expectedDate)}` : ''}.`,
        level: 'Info',
        entityType: 'PurchaseOrder',
        entityId: uuid(p.purchaseOrderId),
        actionLink: `/api/v1/purchase-orders/${text(p.purchaseOrderId)}`,
      }
    case 'PurchaseOrderReceived':
      return {
        ...base,
        title: p.status === 'Received' ? 'Purchase order received' : 'Purchase order partly received',
        message:
          p.status === 'Received'
            ? `Purchase order ${text(p.number)} is fully received.`
            : `Goods of purchase order ${text(p.number)} were received; some are still outstanding.`,
        level: p.status === 'Received' ? 'Success' : 'Info',
        entityType: 'PurchaseOrder',
        entityId: uuid(p.purchaseOrderId),
        actionLink: `/api/v1/purchase-orders/${text(p.purchaseOrderId)}`,
      }
    case 'PurchaseOrderOverdue':
      return {
        ...base,
        title: 'Purchase order overdue',
        message: `Purchase order ${text(p.number)} was expected on ${text(p.expectedDate)} and is not fully received.`,
        level: 'Warning',
        priority: 'High',
        entityType: 'PurchaseOrder',
        entityId: uuid(p.purchaseOrderId),
        actionLink: `/api/v1/purchase-orders/${text(p.purchaseOrderId)}`,
      }
    case 'TransferOrderShipped':
      return {
        ...base,
        title: 'Transfer shipped',
        message: `Transfer ${text(p.number)} was shipped; its goods are in transit.`,
        level: 'Info',
        entityType: 'TransferOrder',
        entityId: uuid(p.transferOrderId),
        actionLink: `/api/v1/transfer-orders/${text(p.transferOrderId)}`,
      }
    case 'TransferOrderReceived':
      return {
        ...base,
        title: p.status === 'Received' ? 'Transfer received' : 'Transfer partly received',
        message:
          p.status === 'Received'
            ? `Transfer ${text(p.number)} was received in full.`
            : `Part of transfer ${text(p.number)} was received; the rest is still in transit.`,
        level: p.status === 'Received' ? 'Success' : 'Info',
        entityType: 'TransferOrder',
        entityId: uuid(p.transferOrderId),
        actionLink: `/api/v1/transfer-orders/${text(p.transferOrderId)}`,
      }
    case 'WebhookEndpointDisabled':
      return {
        ...base,
        title: 'Webhook endpoint disabled',
        message: `Webhooks to ${text(p.url)} stopped after repeated failures (${text(p.reason)}). Fix the receiver, then enable the endpoint again.`,
        level: 'Error',
        priority: 'High',
        entityType: 'IntegrationProvider',
        entityId: uuid(p.endpointId),
        actionLink: `/api/v1/webhooks/endpoints/${text(p.endpointId)}`,
      }
    default:
      return undefined
  }
}
