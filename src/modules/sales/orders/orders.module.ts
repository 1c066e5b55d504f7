import { defineModule } from '../../../platform/module.js'
import { registerOrderStatusRoutes } from './order-status.routes.js'
import { orderEvents } from './orders.events.js'
import { registerOrderRoutes } from './orders.routes.js'

/** Orders (M1): customer orders with lines, totals and status moves. */
export const ordersModule = defineModule({
  name: 'sales/orders',
  core: {
    tags: [{ name: 'Orders', description: 'Customer orders with lines, totals and status moves (Orders)' }],
    routes(app, deps) {
      registerOrderRoutes(app, deps)
      registerOrderStatusRoutes(app, deps)
    },
  },
  schemaNames: {
    ConfirmOrder: { data: 'OrderResponse' },
    FulfillOrder: { data: 'OrderResponse' },
    CancelOrder: { data: 'OrderResponse' },
    GetOrders: { data: 'OrderResponse' },
    CreateOrder: { body: 'CreateOrderCommand', data: 'OrderResponse' },
    GetOrder: { data: 'OrderResponse' },
    UpdateOrder: { body: 'UpdateOrderCommand', data: 'OrderResponse' },
  },
  events: orderEvents,
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    orders: {
      source: 'orders',
      filter: 'TRUE',
      columns: [
        'id',
        'code',
        'customer_id',
        'status',
        'order_date',
        'currency',
        'total',
        'confirmed_at',
        'date_created',
      ],
    },
  },
})
