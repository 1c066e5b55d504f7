import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'
import type { BoundingBox } from './geometry.js'

const COLUMNS = [
  'id',
  'business_id',
  'name',
  'geometry',
  'colour',
  'active',
  'min_longitude',
  'min_latitude',
  'max_longitude',
  'max_latitude',
  'date_created',
  'date_modified',
] as const

export function scopedZones(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('delivery_zones')
    .where('business_id', '=', businessId)
    .select(COLUMNS)
}

export type ZoneRow = NonNullable<Awaited<ReturnType<typeof findZone>>>

/** What a write returns: everything but the shape, which the caller has (a large one is 0.3 MB). */
const WRITTEN = [...COLUMNS.filter((column) => column !== 'geometry'), 'revision'] as const

/** Zones up to this many positions come inline with a lookup: decoding them costs less than a round trip. */
export const INLINE_POSITIONS = 1_000

/**
 * Zones as lookups read them: every column, the shape only for small zones (null for the others,
 * whose prepared copy a process keeps by id and revision), the revision and the size.
 */
function zoneHeads(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('delivery_zones')
    .where('business_id', '=', businessId)
    .select(COLUMNS.filter((column) => column !== 'geometry'))
    .select(['revision', 'positions'])
    .select(
      sql<Buffer | null>`case when positions <= ${sql.lit(INLINE_POSITIONS)} then geometry end`.as(
        'geometry',
      ),
    )
}

export type ZoneHead = Awaited<ReturnType<typeof zonesAroundPoint>>[number]

/** Whole zones with their revisions (for zones whose shape a lookup did not carry). */
export function zonesByIds(db: Executor, schema: string, businessId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return scopedZones(db, schema, businessId).select('revision').where('id', 'in', ids).execute()
}

export function findZone(db: Executor, schema: string, businessId: string, id: string) {
  return scopedZones(db, schema, businessId).where('id', '=', id).executeTakeFirst()
}

/**
 * Zones as reads answer them: every column, with the revision and size that tell whether this
 * process holds a large zone's coordinates as JSON text already (prepared-zone.ts).
 */
export function answeredZones(db: Executor, schema: string, businessId: string) {
  return scopedZones(db, schema, businessId).select(['revision', 'positions'])
}

export type AnsweredZoneRow = NonNullable<Awaited<ReturnType<typeof findAnsweredZone>>>

export function findAnsweredZone(db: Executor, schema: string, businessId: string, id: string) {
  return answeredZones(db, schema, businessId).where('id', '=', id).executeTakeFirst()
}

export interface ZoneValues {
  name: string
  geometry: Buffer
  /** shapeDigest(geometry) */
  geometry_digest: string
  positions: number
  colour: string | null
  active: boolean
  bbox: BoundingBox
}

const columnsOf = ({ bbox, ...rest }: ZoneValues) => ({
  ...rest,
  min_longitude: bbox.minLongitude,
  min_latitude: bbox.minLatitude,
  max_longitude: bbox.maxLongitude,
  max_latitude: bbox.maxLatitude,
})

export function insertZone(db: Executor, schema: string, id: string, businessId: string, values: ZoneValues) {
  return db
    .withSchema(schema)
    .insertInto('delivery_zones')
    .values({ id, business_id: businessId, ...columnsOf(values) })
    .returning(WRITTEN)
    .executeTakeFirstOrThrow()
}

export function updateZone(db: Executor, schema: string, businessId: string, id: string, values: ZoneValues) {
  return db
    .withSchema(schema)
    .updateTable('delivery_zones')
    .set({ ...columnsOf(values), revision: sql<number>`revision + 1`, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning(WRITTEN)
    .executeTakeFirst()
}

export function deleteZone(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .deleteFrom('delivery_zones')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning('id')
    .executeTakeFirst()
}

/**
 * Active zones whose bounding box holds the point: `box @> point` is served by the GiST index on
 * the box expression (plain PostgreSQL geometry, present in PGlite too). The exact test follows
 * in the application.
 */
export function zonesAroundPointQuery(
  db: Executor,
  schema: string,
  businessId: string,
  longitude: number,
  latitude: number,
) {
  return zoneHeads(db, schema, businessId)
    .where('active', '=', true)
    .where(
      sql<boolean>`box(point(min_longitude, min_latitude), point(max_longitude, max_latitude)) @> point(${longitude}, ${latitude})`,
    )
    .orderBy('name')
    .orderBy('id')
}

export function zonesAroundPoint(
  db: Executor,
  schema: string,
  businessId: string,
  longitude: number,
  latitude: number,
) {
  return zonesAroundPointQuery(db, schema, businessId, longitude, latitude).execute()
}

/** Active zones of the business, or only those named (for autobatch). */
export function activeZones(db: Executor, schema: string, businessId: string, ids: readonly string[] | null) {
  let query = zoneHeads(db, schema, businessId).where('active', '=', true)
  if (ids) {
    if (ids.length === 0) return Promise.resolve([])
    query = query.where('id', 'in', ids)
  }
  return query.orderBy('id').execute()
}

/** Which of `ids` are zones of the business. */
export async function existingZoneIds(
  db: Executor,
  schema: string,
  businessId: string,
  ids: readonly string[],
) {
  const found = await db
    .withSchema(schema)
    .selectFrom('delivery_zones')
    .select('id')
    .where('id', 'in', ids)
    .where('business_id', '=', businessId)
    .execute()
  return new Set(found.map((z) => z.id))
}
