import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import * as presetReference from './migrations/20261202090000-shipment-preset-reference.js'
import * as windowsAndTimes from './migrations/20261218090000-shipment-windows-and-planned-times.js'
import * as derivedLoad from './migrations/20261228090000-shipment-derived-load.js'
import { shipmentEvents } from './shipments.events.js'
import { registerShipmentRoutes } from './shipments.routes.js'

/** Shipments (M2) and their status moves. */
export const shipmentsModule = defineModule({
  name: 'delivery/shipments',
  core: {
    tags: [{ name: 'Shipments', description: 'Shipments and their status moves (Shipments)' }],
    routes: registerShipmentRoutes,
  },
  schemaNames: returning('ShipmentResponse', [
    'GetShipments',
    'CreateShipment',
    'GetShipment',
    'UpdateShipment',
    'AssignShipment',
    'DispatchShipment',
    'ReturnShipment',
    'CancelShipment',
    'DeliverShipment',
    'FailShipment',
    'GetUnassignedShipments',
  ]),
  migrations: {
    tenant: [
      { name: '20261202090000-shipment-preset-reference', sql: presetReference.sql },
      { name: '20261218090000-shipment-windows-and-planned-times', sql: windowsAndTimes.sql },
      { name: '20261228090000-shipment-derived-load', sql: derivedLoad.sql },
    ],
  },
  events: shipmentEvents,
  // What the SQL console may read of its tables (docs/sql-console.md): these columns, these rows.
  consoleViews: {
    shipments: {
      source: 'shipments',
      filter: 'TRUE',
      columns: [
        'id',
        'code',
        'order_id',
        'customer_id',
        'status',
        'weight',
        'fulfillment_cost',
        'scheduled_date',
        'delivery_windows',
        'service_minutes',
        'planned_arrival',
        'planned_departure',
        'dispatched_at',
        'delivered_at',
        'date_created',
      ],
    },
  },
})
