/**
 * Where in the console a notification leads. Notifications carry the API path of what they are
 * about (`actionLink`, e.g. /api/v1/plans/<id>) and an entity type and id; the console opens its own
 * page for that thing, or nothing when it has none.
 */
const BY_PATH: [RegExp, (id: string) => string][] = [
  [/^\/api\/v1\/plans\/([\w-]+)$/i, (id) => `/delivery/plans/${id}`],
  [/^\/api\/v1\/shipments\/([\w-]+)$/i, (id) => `/delivery/shipments/${id}`],
  [/^\/api\/v1\/products\/([\w-]+)$/i, (id) => `/products/${id}`],
  [/^\/api\/v1\/work-orders\/([\w-]+)$/i, (id) => `/manufacturing/work-orders/${id}`],
  [/^\/api\/v1\/bom\/([\w-]+)$/i, (id) => `/manufacturing/boms/${id}`],
  [/^\/api\/v1\/customers\/([\w-]+)$/i, (id) => `/customers/${id}`],
  [/^\/api\/v1\/suppliers\/([\w-]+)$/i, (id) => `/suppliers/${id}`],
  [/^\/api\/v1\/purchase-orders\/([\w-]+)$/i, (id) => `/purchase-orders/${id}`],
  [/^\/api\/v1\/transfer-orders\/([\w-]+)$/i, (id) => `/transfer-orders/${id}`],
]

const BY_ENTITY: Record<string, (id: string) => string> = {
  Shipment: (id) => `/delivery/shipments/${id}`,
  Product: (id) => `/products/${id}`,
  WorkOrder: (id) => `/manufacturing/work-orders/${id}`,
  Bom: (id) => `/manufacturing/boms/${id}`,
  Customer: (id) => `/customers/${id}`,
  Supplier: (id) => `/suppliers/${id}`,
  PurchaseOrder: (id) => `/purchase-orders/${id}`,
  TransferOrder: (id) => `/transfer-orders/${id}`,
}

export function consoleRouteFor(notification: {
  actionLink: string | null
  entityType: string
  entityId: string | null
}): string | null {
  if (notification.actionLink) {
    const path = notification.actionLink.replace(/^https?:\/\/[^/]+/i, '').split(/[?#]/)[0] ?? ''
    for (const [pattern, route] of BY_PATH) {
      const id = pattern.exec(path)?.[1]
      if (id) return route(id)
    }
  }
  const byEntity = BY_ENTITY[notification.entityType]
  return byEntity && notification.entityId ? byEntity(notification.entityId) : null
}
