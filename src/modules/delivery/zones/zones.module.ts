import { returning } from '../../../http/openapi-names.js'
import { defineModule } from '../../../platform/module.js'
import * as zoneRevision from './migrations/20261202091500-delivery-zone-revision.js'
import * as zoneShape from './migrations/20261230090000-delivery-zone-shape.js'
import * as zoneGeometryColumn from './migrations/20261231090000-delivery-zone-geometry-column.js'
import * as zoneGeometryDigest from './migrations/20270102100000-delivery-zone-geometry-digest.js'
import { registerZoneRoutes } from './zones.routes.js'

/** Delivery zones as GeoJSON polygons, with point lookup. */
export const zonesModule = defineModule({
  name: 'delivery/zones',
  core: {
    tags: [
      {
        name: 'DeliveryZones',
        description: 'Delivery zones as GeoJSON polygons, with point lookup (Shipments)',
      },
    ],
    routes: registerZoneRoutes,
  },
  migrations: {
    tenant: [
      { name: '20261202091500-delivery-zone-revision', sql: zoneRevision.sql },
      { name: '20261230090000-delivery-zone-shape', sql: zoneShape.sql },
      { name: '20261231090000-delivery-zone-geometry-column', sql: zoneGeometryColumn.sql },
      { name: '20270102100000-delivery-zone-geometry-digest', sql: zoneGeometryDigest.sql },
    ],
  },
  schemaNames: returning('DeliveryZoneResponse', [
    'GetAllDeliveryZones',
    'CreateDeliveryZone',
    'GetZonesInsideCoordinates',
    'GetDeliveryZone',
    'UpdateDeliveryZone',
  ]),
})
