import { polygonsOf, type ZoneGeometry } from './geometry.js'
import { type GeometryWork, IndexedRing, type Position } from './rings.js'
import { geometryOf, type ZoneShape } from './shape.js'

/**
 * A zone's geometry ready for point tests: each ring's coordinates and edge index built once.
 * A test checks the outer ring's bounding box first, then casts a ray through the index, then the
 * holes the same way, so it visits a few edges whatever the zone's size. It holds the zone's
 * coordinates too, so a lookup answers a zone it holds without reading its shape again.
 */
export class PreparedZone {
  private constructor(
    private readonly type: ZoneGeometry['type'],
    private readonly rings: readonly (readonly IndexedRing[])[],
    private readonly polygons: readonly { outer: IndexedRing; holes: readonly IndexedRing[] }[],
    /** Positions held, the cache's measure of its size. */
    readonly positions: number,
    private json: Uint8Array | undefined,
  ) {}

  /** From rings already built (by validation), with the coordinates' JSON text when it was written already. */
  static fromRings(
    type: ZoneGeometry['type'],
    rings: readonly (readonly IndexedRing[])[],
    coordinatesJson?: Uint8Array,
  ): PreparedZone {
    let positions = 0
    const prepared = []
    for (const [outer, ...holes] of rings) {
      if (!outer) continue
      prepared.push({ outer, holes })
      for (const ring of [outer, ...holes]) positions += ring.positions
    }
    return new PreparedZone(type, rings, prepared, positions, coordinatesJson)
  }

  /** From a stored shape (validated when it was saved); its coordinates are kept, not copied. */
  static fromShape(shape: ZoneShape): PreparedZone {
    return PreparedZone.fromRings(
      shape.type,
      shape.polygons.map((rings) => rings.map((ring) => new IndexedRing(ring))),
    )
  }

  /** From a GeoJSON geometry (already validated). */
  static fromGeometry(geometry: ZoneGeometry): PreparedZone {
    return PreparedZone.fromRings(
      geometry.type,
      polygonsOf(geometry).map((polygon) => polygon.map((ring) => new IndexedRing(ring as Position[]))),
    )
  }

  /** The zone's GeoJSON, as the API answers it. */
  geometry(): ZoneGeometry {
    return geometryOf({ type: this.type, polygons: this.rings })
  }

  get kind(): ZoneGeometry['type'] {
    return this.type
  }

  /** The coordinates as the API writes them (UTF-8), written once for the zone (zone-json.ts). */
  coordinatesJson(): Uint8Array {
    this.json ??= Buffer.from(JSON.stringify(this.geometry().coordinates))
    return this.json
  }

  /** Inside some polygon's outer ring and in none of that polygon's holes (the even-odd rule). */
  contains(longitude: number, latitude: number, work?: GeometryWork): boolean {
    for (const { outer, holes } of this.polygons) {
      if (!outer.contains(longitude, latitude, work)) continue
      if (!holes.some((hole) => hole.contains(longitude, latitude, work))) return true
    }
    return false
  }
}

/**
 * Prepared zones of this process, keyed by organisation schema and zone id, each valid for one
 * revision of the zone (read in the same statement as the zone's bounding box, so a zone another
 * process changed is prepared again). Least recently used first out, bounded by positions: one
 * position costs about 90 bytes here (coordinates, index and, once a lookup answered with the
 * zone, their JSON text), so the bound is about 45 MB.
 */
export class PreparedZoneCache {
  private readonly entries = new Map<string, { revision: number; zone: PreparedZone }>()
  private held = 0

  constructor(private readonly maxPositions: number) {}

  get(schema: string, id: string, revision: number): PreparedZone | undefined {
    const key = `${schema}/${id}`
    const entry = this.entries.get(key)
    if (!entry || entry.revision !== revision) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.zone
  }

  set(schema: string, id: string, revision: number, zone: PreparedZone): void {
    const key = `${schema}/${id}`
    this.drop(key)
    if (zone.positions > this.maxPositions) return
    this.entries.set(key, { revision, zone })
    this.held += zone.positions
    for (const oldest of this.entries.keys()) {
      if (this.held <= this.maxPositions) break
      this.drop(oldest)
    }
  }

  /** Positions held now. */
  get size(): number {
    return this.held
  }

  private drop(key: string) {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.held -= entry.zone.positions
  }
}

export const preparedZones = new PreparedZoneCache(500_000)
