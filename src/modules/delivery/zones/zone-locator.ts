import type { Executor } from '../../../db/tables.js'
import type { ZoneGeometry } from './geometry.js'
import { PreparedZone, preparedZones } from './prepared-zone.js'
import { decodeShape } from './shape.js'
import { type ZoneHead, type ZoneRow, zonesAroundPoint, zonesByIds } from './zones.repository.js'

/**
 * Which active zones of a business contain a point. This is the seam for PostGIS: on a server that
 * has it, an implementation can store a geometry column with a GiST index and answer with one
 * `ST_Covers` query. The default works on PostgreSQL and on PGlite (which has no PostGIS): a bounding-box
 * prefilter in SQL (GiST on box()), then the exact even-odd test with holes, over every polygon,
 * through each zone's prepared edge index.
 */
export interface ZoneLocator {
  zonesContaining(
    db: Executor,
    schema: string,
    businessId: string,
    longitude: number,
    latitude: number,
  ): Promise<FoundZone[]>
}

/** A zone a lookup found: its columns, and its geometry's type and coordinates as JSON text (zone-json.ts). */
export interface FoundZone {
  row: Omit<ZoneRow, 'geometry'>
  type: ZoneGeometry['type']
  coordinatesJson: Uint8Array
}

/**
 * The prepared geometry of each zone read by a lookup: small zones from the shape that came
 * inline, large ones from this process's cache when it holds their revision, the rest read in one
 * statement (whole rows, returned too) and prepared. A zone deleted meanwhile is left out.
 */
export async function prepareZones(
  db: Executor,
  schema: string,
  businessId: string,
  heads: readonly ZoneHead[],
): Promise<{ prepared: Map<string, PreparedZone>; read: Map<string, ZoneRow> }> {
  const prepared = new Map<string, PreparedZone>()
  const missing: string[] = []
  for (const head of heads) {
    if (head.geometry != null) {
      prepared.set(head.id, PreparedZone.fromShape(decodeShape(head.geometry)))
      continue
    }
    const cached = preparedZones.get(schema, head.id, head.revision)
    if (cached) prepared.set(head.id, cached)
    else missing.push(head.id)
  }
  const read = new Map<string, ZoneRow>()
  for (const row of await zonesByIds(db, schema, businessId, missing)) {
    const zone = PreparedZone.fromShape(decodeShape(row.geometry))
    // Kept under the revision read with this shape, which may be newer than the head's.
    preparedZones.set(schema, row.id, row.revision, zone)
    prepared.set(row.id, zone)
    read.set(row.id, row)
  }
  return { prepared, read }
}

export const boundingBoxLocator: ZoneLocator = {
  async zonesContaining(db, schema, businessId, longitude, latitude) {
    const heads = await zonesAroundPoint(db, schema, businessId, longitude, latitude)
    const { prepared, read } = await prepareZones(db, schema, businessId, heads)
    const inside = heads.filter((head) => prepared.get(head.id)?.contains(longitude, latitude))
    // The prepared zone holds the geometry of the revision its head names (inline, cached or just
    // read), so the answer needs no second read of a large zone's shape.
    return inside.flatMap((head) => {
      const zone = prepared.get(head.id)
      const row = read.get(head.id) ?? head
      return zone ? [{ row, type: zone.kind, coordinatesJson: zone.coordinatesJson() }] : []
    })
  },
}
