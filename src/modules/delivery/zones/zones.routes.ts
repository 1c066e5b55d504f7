import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CoordinatesQuery, DeliveryZoneResponse, ZoneParams, ZoneRequest } from './zones.schemas.js'
import { createZone, deleteZone, getZone, listZones, updateZone, zonesAtPoint } from './zones.service.js'

const TAGS = ['DeliveryZones']
const ONE = SingleResult('core', DeliveryZoneResponse)
const VIEW = ['Shipments', 'View'] as const
const MODIFY = ['Shipments', 'Modify'] as const
const GEOMETRY_NOTE =
  'polygon is a GeoJSON Polygon or MultiPolygon in WGS84: closed rings of at least four positions, longitude -180..180, latitude -90..90, no ring crossing itself, each hole inside its outer ring (it may touch it, not cross it); ' +
  'each problem is a 400 reason naming its position (e.g. polygon.coordinates[0][3][1]). ' +
  'Limits: at most 4,000 positions in a ring and 20,000 in all; a shape whose edges overlap so much that checking it would take over 1,000,000 edge tests is refused as too intricate.'

/** Delivery zones (M2): areas plans deliver to; a point lookup finds every active zone holding a point. */
export function registerZoneRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/DeliveryZones',
    operation(VIEW, {
      operationId: 'GetAllDeliveryZones',
      summary: "The business's delivery zones",
      description:
        '$filter/$orderby over name, active, colour, dateCreated, dateModified; $search matches name.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', DeliveryZoneResponse),
      errors: [400],
    }),
    async (request) => listZones(database, businessAuthOf(request), request.query),
  )
  app.get(
    '/api/v1/DeliveryZones/coordinates',
    operation(VIEW, {
      operationId: 'GetZonesInsideCoordinates',
      summary: 'Every active zone containing a point',
      description:
        'Holes are excluded and every polygon of a MultiPolygon counts. A bounding-box prefilter runs in SQL (GiST index), the exact test in the service; no PostGIS needed. All matches come on one page.',
      tags: TAGS,
      querystring: CoordinatesQuery,
      response: PagedResult('core', DeliveryZoneResponse),
      errors: [400],
    }),
    async (request) =>
      zonesAtPoint(database, businessAuthOf(request), request.query.latitude, request.query.longitude),
  )
  app.post(
    '/api/v1/DeliveryZones',
    operation(MODIFY, {
      operationId: 'CreateDeliveryZone',
      summary: 'Create a delivery zone',
      description: GEOMETRY_NOTE,
      tags: TAGS,
      body: ZoneRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) => single('core', await createZone(database, businessAuthOf(request), request.body)),
  )
  app.get(
    '/api/v1/DeliveryZones/:deliveryZoneId',
    operation(VIEW, {
      operationId: 'GetDeliveryZone',
      summary: 'One delivery zone',
      tags: TAGS,
      params: ZoneParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getZone(database, businessAuthOf(request), request.params.deliveryZoneId)),
  )
  app.put(
    '/api/v1/DeliveryZones/:deliveryZoneId',
    operation(MODIFY, {
      operationId: 'UpdateDeliveryZone',
      summary: 'Replace a delivery zone',
      description: GEOMETRY_NOTE,
      tags: TAGS,
      params: ZoneParams,
      body: ZoneRequest,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await updateZone(database, businessAuthOf(request), request.params.deliveryZoneId, request.body),
      ),
  )
  app.delete(
    '/api/v1/DeliveryZones/:deliveryZoneId',
    operation(['Shipments', 'Delete'], {
      operationId: 'DeleteDeliveryZone',
      summary: 'Delete a delivery zone',
      description: 'Plans that named it keep their other zones.',
      tags: TAGS,
      params: ZoneParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await deleteZone(database, businessAuthOf(request), request.params.deliveryZoneId)),
  )
}
