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
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    purchase_orders: {
      source: 'purchase_orders',
      filter: 'TRUE',
      columns: [
        'id',
        'number',
        'supplier_id',
        'status',
        'currency',
        'expected_date',
        'total',
        'submitted_at',
        'received_at',
        'closed_at',
        'cancelled_at',
        'date_created',
      ],
    },
    purchase_order_lines: {
      source: 'purchase_order_lines',
      filter: 'TRUE',
      columns: [
        'id',
        'purchase_order_id',
        'line_number',
        'product_id',
        'quantity',
        'unit_cost',
        'line_total',
        'received_quantity',
      ],
    },
  },
})
