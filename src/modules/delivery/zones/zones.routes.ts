import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { checkBodyInThread } from './shape-thread.js'
import { type ShapeCheck, THREAD_FROM_BYTES } from './shape-work.js'
import { RawCoordinates } from './zone-json.js'
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

/** Checks of request bodies made on a zone thread, for their handlers. */
const checks = new WeakMap<FastifyRequest, ShapeCheck>()

/**
 * JSON bodies of this scope's routes: a large one (a zone of thousands of positions) is parsed and
 * its polygon checked, encoded and indexed on a zone thread, so that the 10-40 ms this takes does
 * not hold the event loop; the body then carries no coordinates (the handler takes the check).
 * Anything the thread leaves (shape-work.ts), a small body, and a thread that failed, are parsed
 * here by the HTTP layer's own parser, as on every other route.
 */
function installZoneBodyParser(scope: FastifyInstance) {
  const parseJson = scope.getDefaultJsonParser('error', 'error')
  const parse = (
    request: FastifyRequest,
    bytes: Buffer,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    if (bytes.length < THREAD_FROM_BYTES) return parseJson(request, bytes.toString(), done)
    // A copy is handed over, so the body stays here for the normal path.
    void checkBodyInThread(new Uint8Array(bytes)).then(
      (answer) => {
        if (!('check' in answer)) return parseJson(request, bytes.toString(), done)
        checks.set(request, answer.check)
        done(null, answer.body)
      },
      (error: unknown) => {
        request.log.warn({ err: error }, 'zone thread failed; the body is parsed on the event loop')
        void parseJson(request, bytes.toString(), done)
      },
    )
  }
  for (const type of ['application/json', 'text/json', /^application\/[\w.-]+\+json$/]) {
    scope.removeContentTypeParser(type)
    scope.addContentTypeParser(type, { parseAs: 'buffer' }, parse)
  }
}

/** Delivery zones (M2): areas plans deliver to; a point lookup finds every active zone holding a point. */
export function registerZoneRoutes(root: HttpApp, deps: AppDeps) {
  // A scope of their own: the zone body parser applies to these routes only.
  void root.register(async (plugin) => {
    installZoneBodyParser(plugin)
    zoneRoutes(plugin.withTypeProvider<TypeBoxTypeProvider>(), deps)
  })
}

function zoneRoutes(app: HttpApp, { database }: AppDeps) {
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
    async (request, reply) => {
      const raw = new RawCoordinates()
      const page = await listZones(database, businessAuthOf(request), request.query, raw)
      raw.serializeOn(reply)
      return page
    },
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
    async (request, reply) => {
      const raw = new RawCoordinates()
      const { latitude, longitude } = request.query
      const found = await zonesAtPoint(database, businessAuthOf(request), latitude, longitude, raw)
      raw.serializeOn(reply)
      return found
    },
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
    async (request, reply) => {
      const raw = new RawCoordinates()
      const zone = await createZone(database, businessAuthOf(request), request.body, checks.get(request), raw)
      raw.serializeOn(reply)
      return single('core', zone)
    },
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
    async (request, reply) => {
      const raw = new RawCoordinates()
      const zone = await getZone(database, businessAuthOf(request), request.params.deliveryZoneId, raw)
      raw.serializeOn(reply)
      return single('core', zone)
    },
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
    async (request, reply) => {
      const raw = new RawCoordinates()
      const { deliveryZoneId } = request.params
      const auth = businessAuthOf(request)
      const zone = await updateZone(database, auth, deliveryZoneId, request.body, checks.get(request), raw)
      raw.serializeOn(reply)
      return single('core', zone)
    },
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
