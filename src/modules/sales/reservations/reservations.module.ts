import { defineModule } from '../../../platform/module.js'
import { sql as createReservations } from './migrations/20261212090000-stock-reservations.js'
import { reservationEvents } from './reservations.events.js'
import { registerReservationRoutes } from './reservations.routes.js'

/** Reservations: what confirmed orders hold of the stock, availability and available-to-promise. */
export const reservationsModule = defineModule({
  name: 'sales/reservations',
  core: {
    tags: [
      {
        name: 'Reservations',
        description:
          "Stock held by confirmed orders, a product's availability (on hand, reserved, incoming by date) and available-to-promise (Orders, Products)",
      },
    ],
    routes: registerReservationRoutes,
  },
  migrations: { tenant: [{ name: '20261212090000-stock-reservations', sql: createReservations }] },
  events: reservationEvents,
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    stock_reservations: {
      source: 'stock_reservations',
      filter: 'TRUE',
      columns: [
        'id',
        'order_id',
        'order_line_id',
        'product_id',
        'quantity',
        'backordered',
        'date_created',
        'date_modified',
      ],
    },
  },
})
