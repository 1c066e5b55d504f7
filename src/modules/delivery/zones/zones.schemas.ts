import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

/** Shape only; rings, ranges and self-intersection are checked by the service (400 naming the position). */
export const GeoJsonGeometry = Type.Object(
  {
    type: Type.String({ description: 'Polygon or MultiPolygon' }),
    coordinates: Type.Array(Type.Unknown(), {
      description: 'GeoJSON (RFC 7946) coordinates, [longitude, latitude] in WGS84',
    }),
  },
  { description: 'A GeoJSON Polygon or MultiPolygon; holes (inner rings) are excluded from the zone' },
)

export const ZoneRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  polygon: GeoJsonGeometry,
  colour: Type.Optional(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' }))),
  active: Type.Optional(Type.Boolean({ default: true })),
})
export type ZoneRequest = Static<typeof ZoneRequest>

export const ZoneParams = Type.Object({ deliveryZoneId: Uuid() })

export const CoordinatesQuery = Type.Object({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
})

export const DeliveryZoneResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  name: Type.String(),
  polygon: GeoJsonGeometry,
  colour: Nullable(Type.String()),
  active: Type.Boolean(),
  boundingBox: Type.Object({
    minLongitude: Type.Number(),
    minLatitude: Type.Number(),
    maxLongitude: Type.Number(),
    maxLatitude: Type.Number(),
  }),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type DeliveryZoneResponse = Static<typeof DeliveryZoneResponse>
