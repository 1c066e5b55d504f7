import { defineModule } from '../../../platform/module.js'
import * as transferOrders from './migrations/20261201110000-transfer-orders.js'
import * as transferOrderSides from './migrations/20261201111000-transfer-order-sides.js'
import { transferOrderEvents } from './transfer-orders.events.js'
import { registerTransferOrderRoutes } from './transfer-orders.routes.js'

/** Transfer orders (TransferOrders): stock moved between the businesses of an organisation. */
export const transferOrdersModule = defineModule({
  name: 'inventory/transfer-orders',
  core: {
    tags: [
      {
        name: 'TransferOrders',
        description:
          'Transfer orders: stock shipped from one business of the organisation and received by another, at the cost it left with (TransferOrders)',
      },
    ],
    routes: registerTransferOrderRoutes,
  },
  migrations: {
    tenant: [
      { name: '20261201110000-transfer-orders', sql: transferOrders.sql },
      { name: '20261201111000-transfer-order-sides', sql: transferOrderSides.sql },
    ],
  },
  events: transferOrderEvents,
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    transfer_orders: {
      source: 'transfer_order_sides',
      filter: 'TRUE',
      columns: [
        'id',
        'number',
        'direction',
        'source_business_id',
        'destination_business_id',
        'status',
        'shipped_at',
        'received_at',
        'cancelled_at',
        'date_created',
      ],
    },
    transfer_order_lines: {
      source: 'transfer_order_line_sides',
      filter: 'TRUE',
      columns: [
        'id',
        'transfer_order_id',
        'number',
        'direction',
        'line_number',
        'source_product_id',
        'destination_product_id',
        'quantity',
        'unit_cost',
        'quantity_received',
        'quantity_in_transit',
      ],
    },
  },
})
