import { defineModule } from '../../../platform/module.js'
import { sql as createShipmentLines } from './migrations/20261212100000-shipment-lines.js'
import { shipmentLineEvents } from './shipment-lines.events.js'
import { registerShipmentLineRoutes } from './shipment-lines.routes.js'

/** What shipments carry: lines from orders or on their own, packing, pick lists; issued from stock on dispatch. */
export const shipmentLinesModule = defineModule({
  name: 'delivery/shipment-lines',
  core: {
    tags: [
      {
        name: 'ShipmentLines',
        description:
          "What shipments carry (from orders' lines or on their own), packing, and a plan's pick list; dispatching issues them from stock (Shipments)",
      },
    ],
    routes: registerShipmentLineRoutes,
  },
  migrations: { tenant: [{ name: '20261212100000-shipment-lines', sql: createShipmentLines }] },
  events: shipmentLineEvents,
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    shipment_lines: {
      source: 'shipment_lines',
      filter: 'TRUE',
      columns: [
        'id',
        'shipment_id',
        'line_number',
        'order_line_id',
        'product_id',
        'quantity',
        'package',
        'unit_cost',
        'ledger_entry_id',
        'returned_entry_id',
        'date_created',
      ],
    },
  },
})
