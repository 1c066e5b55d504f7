import { createHash } from 'node:crypto'
import type { ZoneGeometry } from './geometry.js'

/**
 * A zone's geometry as stored: one bytea, a fifth of its JSON's size and no parsing either way.
 * Big-endian throughout (as PostgreSQL's int4send and float8send write, so SQL can build it too):
 *
 *   int4 kind (1 Polygon, 2 MultiPolygon), int4 polygons, int4 rings of each polygon,
 *   int4 positions of each ring, then every position as float8 longitude, float8 latitude.
 *
 * A double holds every JSON number exactly as JavaScript read it, so a zone reads back as it was
 * saved (an altitude, which GeoJSON allows as a third value, is not kept).
 */
export interface ZoneShape {
  type: ZoneGeometry['type']
  /** Per polygon, its rings (outer first): longitudes and latitudes, the closing position included. */
  polygons: readonly (readonly { readonly xs: Float64Array; readonly ys: Float64Array }[])[]
}

const KIND = { Polygon: 1, MultiPolygon: 2 } as const

export function encodeShape(shape: ZoneShape): Buffer {
  const rings = shape.polygons.flat()
  const positions = rings.reduce((sum, ring) => sum + ring.xs.length, 0)
  const buffer = Buffer.allocUnsafe(8 + 4 * shape.polygons.length + 4 * rings.length + 16 * positions)
  let at = buffer.writeInt32BE(KIND[shape.type], 0)
  at = buffer.writeInt32BE(shape.polygons.length, at)
  for (const polygon of shape.polygons) at = buffer.writeInt32BE(polygon.length, at)
  for (const ring of rings) at = buffer.writeInt32BE(ring.xs.length, at)
  for (const { xs, ys } of rings) {
    for (let i = 0; i < xs.length; i++) {
      at = buffer.writeDoubleBE(xs[i] as number, at)
      at = buffer.writeDoubleBE(ys[i] as number, at)
    }
  }
  return buffer
}

/** What the geometry_digest column holds for an encoded shape: its MD5, hex (the audit log's digest, not a security one). */
export const shapeDigest = (encoded: Uint8Array) => createHash('md5').update(encoded).digest('hex')

/** The shape encodeShape wrote (a stored one: trusted, not validated again). */
export function decodeShape(buffer: Uint8Array): ZoneShape {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  let at = 0
  const int = () => {
    const value = view.getInt32(at)
    at += 4
    return value
  }
  const type = int() === KIND.MultiPolygon ? 'MultiPolygon' : 'Polygon'
  const ringsOf = Array.from({ length: int() }, int)
  const sizes = ringsOf.map((rings) => Array.from({ length: rings }, int))
  const polygons = sizes.map((rings) =>
    rings.map((n) => {
      const xs = new Float64Array(n)
      const ys = new Float64Array(n)
      for (let i = 0; i < n; i++) {
        xs[i] = view.getFloat64(at)
        ys[i] = view.getFloat64(at + 8)
        at += 16
      }
      return { xs, ys }
    }),
  )
  return { type, polygons }
}

/** The GeoJSON a shape stands for, as the API answers it. */
export function geometryOf(shape: ZoneShape): ZoneGeometry {
  const polygons = shape.polygons.map((rings) =>
    rings.map(({ xs, ys }) => Array.from(xs, (x, i) => [x, ys[i] as number])),
  )
  return { type: shape.type, coordinates: shape.type === 'Polygon' ? polygons[0] : polygons }
}

/** Positions in a shape, closing ones included. */
export function positionsOf(shape: ZoneShape): number {
  return shape.polygons.reduce((sum, rings) => sum + rings.reduce((s, ring) => s + ring.xs.length, 0), 0)
}

/** The shape of a GeoJSON geometry that is already valid (seeding, tests). */
export function shapeOf(geometry: ZoneGeometry): ZoneShape {
  const polygons = (
    geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
  ) as number[][][][]
  return {
    type: geometry.type,
    polygons: polygons.map((rings) =>
      rings.map((ring) => ({
        xs: Float64Array.from(ring, (p) => p[0] as number),
        ys: Float64Array.from(ring, (p) => p[1] as number),
      })),
    ),
  }
}
