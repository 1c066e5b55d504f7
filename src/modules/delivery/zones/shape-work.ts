import type { Reason } from '../../../errors.js'
import { type BoundingBox, parseGeometry, type ZoneGeometry } from './geometry.js'
import type { RingParts } from './rings.js'
import { encodeShape, geometryOf, shapeDigest } from './shape.js'

/**
 * The heavy part of saving a large zone, done where it does not hold the event loop (shape-thread.ts):
 * the request body parsed, the shape validated, encoded for storage, its edge indexes built and
 * its coordinates written as the answer will carry them. Pure: the same on any thread.
 */

/** A valid shape, ready to store, to keep prepared and to answer with. */
export interface CheckedShape {
  type: ZoneGeometry['type']
  bbox: BoundingBox
  positions: number
  /** What the geometry column stores (shape.ts). */
  encoded: Uint8Array
  /** Its digest, stored beside it (shapeDigest). */
  digest: string
  /** Per polygon, its rings with their edge indexes (rebuilt without work, rings.ts). */
  rings: RingParts[][]
  /** The coordinates as JSON text (UTF-8), as the answer writes them (no altitude, numbers as JavaScript prints them). */
  coordinatesJson: Uint8Array
}

export type ShapeCheck = { shape: CheckedShape } | { reasons: Reason[] }

/**
 * What the thread answers for a zone's request body: `parsed` for the normal path (anything but
 * a well-formed large body: invalid JSON, names in other letter cases, text in the coordinates,
 * a small shape...), or the body with its coordinates taken out (an empty list) and the check of
 * the polygon they made.
 */
export type BodyCheck = { parsed: false } | { body: Record<string, unknown>; check: ShapeCheck }

/** Bodies at least this large (bytes) go to the thread: about 1,500 positions, a few milliseconds of checks. */
export const THREAD_FROM_BYTES = 64 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The one key of `record` equal to `name` in any letter case, if it is spelled exactly so and alone. */
const onlyExactly = (record: Record<string, unknown>, name: string) => {
  const keys = Object.keys(record).filter((key) => key.toLowerCase() === name)
  return keys.length === 1 && keys[0] === name
}

/** Whether any string lies in the value (only an invalid shape has one, and it may be unstorable text). */
function holdsText(value: unknown): boolean {
  const stack = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node === 'string') return true
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item !== 'number') stack.push(item)
    } else if (isRecord(node)) stack.push(...Object.values(node))
  }
  return false
}

/** A buffer with an ArrayBuffer of its own (a small one may share Node's pool, which must not be handed over). */
const own = (bytes: Uint8Array) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)

export function checkShape(polygon: unknown, field: string): ShapeCheck {
  const parsed = parseGeometry(polygon, field)
  if ('reasons' in parsed) return { reasons: parsed.reasons }
  const type = (polygon as ZoneGeometry).type
  const shape = { type, polygons: parsed.rings }
  const encoded = own(encodeShape(shape))
  return {
    shape: {
      type,
      bbox: parsed.bbox,
      positions: parsed.rings.reduce((sum, rings) => sum + rings.reduce((s, r) => s + r.positions, 0), 0),
      encoded,
      digest: shapeDigest(encoded),
      rings: parsed.rings.map((rings) => rings.map((ring) => ring.parts())),
      coordinatesJson: own(Buffer.from(JSON.stringify(geometryOf(shape).coordinates))),
    },
  }
}

/**
 * A zone request's body, parsed and its polygon checked. Text that might be refused by the HTTP
 * layer's own parser (prototype keys), or whose names differ from the declared ones only in case
 * (the input rules would match them), is left to the normal path, which then answers as ever.
 */
export function checkBody(text: string): BodyCheck {
  if (text.includes('__proto__') || text.includes('constructor')) return { parsed: false }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { parsed: false }
  }
  if (!isRecord(body) || !onlyExactly(body, 'polygon')) return { parsed: false }
  const polygon = body.polygon
  if (!isRecord(polygon) || !onlyExactly(polygon, 'coordinates') || !onlyExactly(polygon, 'type'))
    return { parsed: false }
  const coordinates = polygon.coordinates
  if (!Array.isArray(coordinates) || holdsText(coordinates)) return { parsed: false }
  const check = checkShape(polygon, 'polygon')
  return { body: { ...body, polygon: { ...polygon, coordinates: [] } }, check }
}

/** The objects a check's answer hands over instead of copying. */
export function transferablesOf(check: BodyCheck): ArrayBuffer[] {
  if (!('check' in check) || !('shape' in check.check)) return []
  const { encoded, rings, coordinatesJson } = check.check.shape
  const buffers = [encoded.buffer as ArrayBuffer, coordinatesJson.buffer as ArrayBuffer]
  for (const ring of rings.flat()) {
    buffers.push(ring.xs.buffer as ArrayBuffer, ring.ys.buffer as ArrayBuffer)
    if (ring.index) buffers.push(ring.index)
  }
  return buffers
}
