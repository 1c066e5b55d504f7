import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { invalidField, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { parseGeometryYielding, type ZoneGeometry } from './geometry.js'
import { PreparedZone, preparedZones } from './prepared-zone.js'
import { IndexedRing } from './rings.js'
import { decodeShape, encodeShape, geometryOf, shapeDigest } from './shape.js'
import type { ShapeCheck } from './shape-work.js'
import { RawCoordinates } from './zone-json.js'
import { boundingBoxLocator, type ZoneLocator } from './zone-locator.js'
import { zoneNotFound } from './zones.errors.js'
import * as repository from './zones.repository.js'
import type { DeliveryZoneResponse, ZoneRequest } from './zones.schemas.js'

const LIST: ListSpec = {
  fields: {
    name: { column: 'name', type: 'string' },
    active: { column: 'active', type: 'boolean' },
    colour: { column: 'colour', type: 'string' },
    dateCreated: { column: 'date_created', type: 'datetime' },
    dateModified: { column: 'date_modified', type: 'datetime' },
  },
  search: ['name'],
  defaultOrder: [{ column: 'date_created', direction: 'desc' }],
  tiebreak: 'id',
}

/** The locator in use; replaced where PostGIS is available (see zone-locator.ts). */
let locator: ZoneLocator = boundingBoxLocator
export const useZoneLocator = (next: ZoneLocator) => {
  locator = next
}

/** A zone as the API answers it; `geometry` when the caller has it already (it just saved it). */
export function toZone(
  row: Omit<repository.ZoneRow, 'geometry'> & { geometry?: Buffer },
  geometry?: ZoneGeometry,
): DeliveryZoneResponse {
  const polygon = geometry ?? geometryOf(decodeShape(row.geometry as Buffer))
  return {
    id: row.id,
    businessId: row.business_id,
    name: row.name,
    polygon: polygon as DeliveryZoneResponse['polygon'],
    colour: row.colour,
    active: row.active,
    boundingBox: {
      minLongitude: row.min_longitude,
      minLatitude: row.min_latitude,
      maxLongitude: row.max_longitude,
      maxLatitude: row.max_latitude,
    },
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

const NOT_GEOJSON = 'The zone polygon is not valid GeoJSON.'

async function valuesOf(
  request: ZoneRequest,
  checked: ShapeCheck | undefined,
  raw: RawCoordinates,
): Promise<{
  values: repository.ZoneValues
  polygon: ZoneGeometry
  prepared: PreparedZone
}> {
  const name = request.name.trim()
  if (!name) throw invalidField('name', 'must not be blank')
  const common = { name, colour: request.colour?.toUpperCase() ?? null, active: request.active ?? true }
  if (checked) {
    // Checked on a zone thread (shape-thread.ts): only the results come back.
    if ('reasons' in checked) throw validationFailed(checked.reasons, NOT_GEOJSON)
    const { shape } = checked
    const rings = shape.rings.map((polygon) => polygon.map((ring) => new IndexedRing(ring)))
    const { encoded } = shape
    return {
      values: {
        ...common,
        geometry: Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength),
        geometry_digest: shape.digest,
        positions: shape.positions,
        bbox: shape.bbox,
      },
      polygon: { type: shape.type, coordinates: raw.add(shape.coordinatesJson) },
      prepared: PreparedZone.fromRings(shape.type, rings, shape.coordinatesJson),
    }
  }
  const parsed = await parseGeometryYielding(request.polygon, 'polygon')
  if ('reasons' in parsed) throw validationFailed(parsed.reasons, NOT_GEOJSON)
  const polygon: ZoneGeometry = {
    type: request.polygon.type as ZoneGeometry['type'],
    coordinates: request.polygon.type === 'Polygon' ? parsed.polygons[0] : parsed.polygons,
  }
  const prepared = PreparedZone.fromRings(polygon.type, parsed.rings)
  const geometry = encodeShape({ type: polygon.type, polygons: parsed.rings })
  const values = {
    ...common,
    geometry,
    geometry_digest: shapeDigest(geometry),
    positions: prepared.positions,
    bbox: parsed.bbox,
  }
  return { values, polygon, prepared }
}

/** The index validation built serves this process's next lookups of a large zone. */
function keepPrepared(schema: string, row: { id: string; revision: number }, prepared: PreparedZone) {
  if (prepared.positions > repository.INLINE_POSITIONS)
    preparedZones.set(schema, row.id, row.revision, prepared)
}

/**
 * A zone read to be answered. A large one's coordinates go into `raw` as JSON text, kept with its
 * prepared geometry under its revision (written once, as a save or a lookup keeps it), instead of
 * being turned into 20,000 arrays and serialized again on each read; a small one is answered as is.
 */
function answerOf(schema: string, row: repository.AnsweredZoneRow, raw: RawCoordinates) {
  if (row.positions !== null && row.positions <= repository.INLINE_POSITIONS) return toZone(row)
  let prepared = preparedZones.get(schema, row.id, row.revision)
  if (!prepared) {
    prepared = PreparedZone.fromShape(decodeShape(row.geometry))
    preparedZones.set(schema, row.id, row.revision, prepared)
  }
  return toZone(row, { type: prepared.kind, coordinates: raw.add(prepared.coordinatesJson()) })
}

export async function listZones(
  database: Database,
  auth: BusinessAuth,
  query: ListQuery,
  raw = new RawCoordinates(),
) {
  const scoped = repository.answeredZones(database.db, auth.schemaName, auth.businessId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged(
    'core',
    rows.map((row) => answerOf(auth.schemaName, row, raw)),
    total,
    page,
  )
}

export async function getZone(
  database: Database,
  auth: BusinessAuth,
  id: string,
  raw = new RawCoordinates(),
) {
  const row = await repository.findAnsweredZone(database.db, auth.schemaName, auth.businessId, id)
  if (!row) throw zoneNotFound()
  return answerOf(auth.schemaName, row, raw)
}

/**
 * A zone saved from its request; `checked` when its polygon was checked already (a large body, on
 * a zone thread), and `raw` to take the coordinates' JSON text the answer is to carry.
 */
export async function createZone(
  database: Database,
  auth: BusinessAuth,
  request: ZoneRequest,
  checked?: ShapeCheck,
  raw = new RawCoordinates(),
) {
  const { values, polygon, prepared } = await valuesOf(request, checked, raw)
  const row = await repository.insertZone(database.db, auth.schemaName, newId(), auth.businessId, values)
  keepPrepared(auth.schemaName, row, prepared)
  return toZone(row, polygon)
}

export async function updateZone(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: ZoneRequest,
  checked?: ShapeCheck,
  raw = new RawCoordinates(),
) {
  const { values, polygon, prepared } = await valuesOf(request, checked, raw)
  const row = await repository.updateZone(database.db, auth.schemaName, auth.businessId, id, values)
  if (!row) throw zoneNotFound()
  keepPrepared(auth.schemaName, row, prepared)
  return toZone(row, polygon)
}

export async function deleteZone(database: Database, auth: BusinessAuth, id: string) {
  if (!(await repository.deleteZone(database.db, auth.schemaName, auth.businessId, id))) throw zoneNotFound()
  return true
}

/**
 * Every active zone containing the point, in one page (a point lies in few zones); their
 * coordinates go into `raw`, as text.
 */
export async function zonesAtPoint(
  database: Database,
  auth: BusinessAuth,
  latitude: number,
  longitude: number,
  raw = new RawCoordinates(),
) {
  const found = await locator.zonesContaining(
    database.db,
    auth.schemaName,
    auth.businessId,
    longitude,
    latitude,
  )
  return paged(
    'core',
    found.map(({ row, type, coordinatesJson }) =>
      toZone(row, { type, coordinates: raw.add(coordinatesJson) }),
    ),
    found.length,
    { page: 1, pageSize: Math.max(1, found.length) },
  )
}
