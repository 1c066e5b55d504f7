import { defineModule } from '../../../platform/module.js'
import { sql as createPurchaseOrders } from './migrations/20261201100000-purchase-orders.js'
import { OverdueSweep } from './overdue.service.js'
import { purchaseOrderEvents } from './purchase-orders.events.js'
import { registerPurchaseOrderRoutes } from './purchase-orders.routes.js'

/** Purchase orders (M13): order products from a supplier, receive them into stock through the ledger. */
export const purchaseOrdersModule = defineModule({
  name: 'purchasing/purchase-orders',
  core: {
    tags: [
      {
        name: 'PurchaseOrders',
        description:
          'Purchase orders: products ordered from a supplier, received (in parts, back-dated if need be) into stock through the ledger (PurchaseOrders)',
      },
    ],
    routes: registerPurchaseOrderRoutes,
  },
  migrations: { tenant: [{ name: '20261201100000-purchase-orders', sql: createPurchaseOrders }] },
  events: purchaseOrderEvents,
  workers: [
    { name: 'overdue purchase order sweep', create: (deps, logger) => new OverdueSweep(deps, logger) },
  ],
})
