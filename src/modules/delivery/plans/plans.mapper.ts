import { readAddress } from '../../../http/address.js'
import type { ShipmentRow } from '../shipments/index.js'
import { toShipment } from '../shipments/index.js'
import type { PlanRow } from './plans.repository.js'
import type { DispatchResponse, PlanStatus } from './plans.schemas.js'

const iso = (value: Date | null) => (value ? value.toISOString() : null)
const round = (value: number, places: number) => Number(value.toFixed(places))

export function toPlan(row: PlanRow, shipmentRows: readonly ShipmentRow[]): DispatchResponse {
  const shipments = shipmentRows.map(toShipment)
  return {
    id: row.id,
    businessId: row.business_id,
    code: row.code,
    name: row.name,
    status: row.status as PlanStatus,
    scheduledDate: row.scheduled_date,
    vehicleId: row.vehicle_id,
    driverName: row.driver_name,
    carrierId: row.carrier_id,
    deliveryZoneIds: row.delivery_zone_ids,
    depot: readAddress(row.depot),
    notes: row.notes,
    shipments,
    totals: {
      shipmentCount: shipments.length,
      weight: round(
        shipments.reduce((sum, s) => sum + (s.weight ?? 0), 0),
        4,
      ),
      volume: round(
        shipments.reduce((sum, s) => sum + (s.volume ?? 0), 0),
        6,
      ),
      distanceKm: row.distance_km === null ? null : Number(row.distance_km),
    },
    scheduledAt: iso(row.scheduled_at),
    dispatchedAt: iso(row.dispatched_at),
    completedAt: iso(row.completed_at),
    cancelledAt: iso(row.cancelled_at),
    autobatchedAt: iso(row.autobatched_at),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

/** Attaches each plan's shipments (loaded for the whole page in one query). */
export function withShipments(rows: readonly PlanRow[], shipments: readonly ShipmentRow[]) {
  const byPlan = new Map<string, ShipmentRow[]>()
  for (const shipment of shipments) {
    const planId = shipment.delivery_plan_id as string
    const list = byPlan.get(planId)
    if (list) list.push(shipment)
    else byPlan.set(planId, [shipment])
  }
  return rows.map((row) => toPlan(row, byPlan.get(row.id) ?? []))
}
