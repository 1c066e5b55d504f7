import { inZone, type Position, type ZonePolygon } from '../../lib/geo'

export type LeftOutReason = 'noLocation' | 'noZone' | 'overCapacity'

export const LEFT_OUT_WORDS: Record<LeftOutReason, string> = {
  noLocation: 'no coordinates on its delivery address',
  noZone: "outside the plan's zones",
  overCapacity: "over the vehicle's capacity",
}

interface Candidate {
  deliveryAddress: { latitude: number | null; longitude: number | null } | null
}

/** Where a shipment is delivered, as a GeoJSON position; null without both coordinates. */
export function deliveryPoint(shipment: Candidate): Position | null {
  const a = shipment.deliveryAddress
  return a && a.latitude !== null && a.longitude !== null ? [a.longitude, a.latitude] : null
}

/**
 * Why autobatch left an unassigned shipment of the plan's day off the plan, by the same tests it
 * makes in the same order: coordinates, then the plan's zones (its active ones; every active zone
 * when it names none), then the vehicle's capacity (what passes the first two was left out for room).
 */
export function leftOutReason(
  shipment: Candidate,
  zones: readonly { id: string; active: boolean; polygon: ZonePolygon }[],
  planZoneIds: readonly string[],
): LeftOutReason {
  const point = deliveryPoint(shipment)
  if (!point) return 'noLocation'
  const eligible = zones.filter((z) => z.active && (planZoneIds.length === 0 || planZoneIds.includes(z.id)))
  if (!eligible.some((zone) => inZone(point, zone.polygon))) return 'noZone'
  return 'overCapacity'
}

/** $filter for shipments scheduled on a delivery day (shipment days are UTC, as autobatch reads them). */
export function scheduledOn(dayValue: string): string {
  const start = new Date(`${dayValue}T00:00:00Z`)
  const next = new Date(start.getTime() + 86_400_000).toISOString().slice(0, 10)
  return `scheduledDate ge ${dayValue}T00:00:00Z and scheduledDate lt ${next}T00:00:00Z`
}
