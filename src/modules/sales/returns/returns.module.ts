import { defineModule } from '../../../platform/module.js'
import { sql as createReturns } from './migrations/20261220090000-returns.js'
import { returnEvents } from './returns.events.js'
import { registerReturnRoutes } from './returns.routes.js'

/** Returns (RMA, permission module Orders): delivered goods sent back, received into stock or written off. */
export const returnsModule = defineModule({
  name: 'sales/returns',
  core: {
    tags: [
      {
        name: 'Returns',
        description:
          'Returns (RMA) of delivered goods: requested, received back into stock at the cost they left with, written off or cancelled; credited on the order (Orders)',
      },
    ],
    routes: registerReturnRoutes,
  },
  migrations: { tenant: [{ name: '20261220090000-returns', sql: createReturns }] },
  events: returnEvents,
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    returns: {
      source: 'returns',
      filter: 'TRUE',
      columns: [
        'id',
        'number',
        'status',
        'order_id',
        'shipment_id',
        'customer_id',
        'value',
        'received_at',
        'written_off_at',
        'cancelled_at',
        'date_created',
      ],
    },
    return_lines: {
      source: 'return_lines',
      filter: 'TRUE',
      columns: [
        'id',
        'return_id',
        'line_number',
        'shipment_line_id',
        'order_line_id',
        'product_id',
        'quantity',
        'unit_price',
        'unit_cost',
        'value',
        'ledger_entry_id',
      ],
    },
  },
})
