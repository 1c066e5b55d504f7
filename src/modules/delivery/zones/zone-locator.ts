import type { Executor } from '../../../db/tables.js'
import { containsPoint, polygonsOf, type ZoneGeometry } from './geometry.js'
import { type ZoneRow, zonesAroundPoint } from './zones.repository.js'

/**
 * Which active zones of a business contain a point. This is the seam for PostGIS: on a server that
 * has it, an implementation can store a geometry column with a GiST index and answer with one
 * `ST_Covers` query. The default works on PostgreSQL and on PGlite (which has no PostGIS): a bounding-box
 * prefilter in SQL (GiST on box()), then the exact even-odd test with holes, over every polygon.
 */
export interface ZoneLocator {
  zonesContaining(
    db: Executor,
    schema: string,
    businessId: string,
    longitude: number,
    latitude: number,
  ): Promise<ZoneRow[]>
}

export const boundingBoxLocator: ZoneLocator = {
  async zonesContaining(db, schema, businessId, longitude, latitude) {
    const candidates = await zonesAroundPoint(db, schema, businessId, longitude, latitude)
    return candidates.filter((zone) =>
      containsPoint(polygonsOf(zone.geometry as ZoneGeometry), longitude, latitude),
    )
  },
}
