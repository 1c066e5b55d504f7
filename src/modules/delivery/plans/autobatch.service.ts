import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import type { MessageEntry } from '../../../http/envelopes.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { vehicleCapacity } from '../vehicles/index.js'
import { activeZones, prepareZones } from '../zones/index.js'
import { type Candidate, type LeftOut, leftOutMessage, unroutedMessage } from './autobatch.messages.js'
import { autobatchShipments, markAutobatched, setStops } from './autobatch.repository.js'
import { planNotEditable, planNotFound } from './plans.errors.js'
import * as repository from './plans.repository.js'
import { greatCircleKm, orderStops, type Point, routeKm } from './routing.js'

const pointOf = (address: unknown): Point | null => {
  const a = address as { latitude?: unknown; longitude?: unknown } | null
  return a && typeof a.latitude === 'number' && typeof a.longitude === 'number'
    ? { latitude: a.latitude, longitude: a.longitude }
    : null
}

/**
 * The plan's shipments and the unassigned Pending shipments of its day, as candidates, and the
 * first pickup point among them (the depot when the plan names none); locked until commit.
 */
async function loadShipments(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
  day: string,
) {
  const rows = await autobatchShipments(trx, schema, businessId, planId, day)
  const toCandidate = (row: (typeof rows)[number]): Candidate => ({
    id: row.id,
    code: row.code,
    weight: Number(row.weight ?? 0),
    volume: Number(row.volume ?? 0),
    point: pointOf(row.delivery_address),
  })
  return {
    onPlan: rows.filter((r) => r.delivery_plan_id === planId).map(toCandidate),
    unassigned: rows.filter((r) => r.delivery_plan_id === null).map(toCandidate),
    firstPickup: rows.map((r) => pointOf(r.pickup_address)).find((p) => p !== null) ?? null,
  }
}

/**
 * Autobatch: fills a Draft or Scheduled plan with the unassigned Pending shipments of its day whose
 * delivery point lies in one of its zones (every active zone when it names none), nearest to the
 * depot first, while the vehicle's weight and volume allow; then orders all its stops (nearest
 * neighbour + 2-opt, great-circle) and stores the sequence and distance. Deterministic: every
 * choice breaks ties by shipment code. Leaves a notification with the counts (via a domain event).
 */
export async function autobatch(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  planId: string,
): Promise<MessageEntry[]> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const plan = await repository.lockPlan(trx, schema, businessId, planId)
    if (!plan) throw planNotFound()
    if (plan.status !== 'Draft' && plan.status !== 'Scheduled') throw planNotEditable(plan.status)
    const vehicle = plan.vehicle_id ? await vehicleCapacity(trx, schema, plan.vehicle_id) : undefined
    const maxWeight = vehicle?.max_weight == null ? Number.POSITIVE_INFINITY : Number(vehicle.max_weight)
    const maxVolume = vehicle?.max_volume == null ? Number.POSITIVE_INFINITY : Number(vehicle.max_volume)
    const zoneIds = plan.delivery_zone_ids.length > 0 ? plan.delivery_zone_ids : null
    const heads = await activeZones(trx, schema, businessId, zoneIds)
    const { prepared } = await prepareZones(trx, schema, businessId, heads)
    const zones = heads.flatMap((bbox) => {
      const zone = prepared.get(bbox.id)
      return zone ? [{ bbox, zone }] : []
    })
    const { onPlan, unassigned, firstPickup } = await loadShipments(
      trx,
      schema,
      businessId,
      planId,
      plan.scheduled_date,
    )
    const depot =
      pointOf(plan.depot) ??
      firstPickup ??
      onPlan.find((s) => s.point)?.point ??
      unassigned.find((s) => s.point)?.point
    const inZone = (p: Point) =>
      zones.some(
        (z) =>
          p.longitude >= z.bbox.min_longitude &&
          p.longitude <= z.bbox.max_longitude &&
          p.latitude >= z.bbox.min_latitude &&
          p.latitude <= z.bbox.max_latitude &&
          z.zone.contains(p.longitude, p.latitude),
      )
    const left: LeftOut[] = []
    const eligible: (Candidate & { point: Point; fromDepot: number })[] = []
    for (const s of unassigned) {
      if (!s.point) left.push({ shipment: s, reason: 'noLocation' })
      else if (!inZone(s.point)) left.push({ shipment: { ...s, point: s.point }, reason: 'noZone' })
      else eligible.push({ ...s, point: s.point, fromDepot: depot ? greatCircleKm(depot, s.point) : 0 })
    }
    eligible.sort((a, b) => a.fromDepot - b.fromDepot || a.code.localeCompare(b.code))
    let weight = onPlan.reduce((sum, s) => sum + s.weight, 0)
    let volume = onPlan.reduce((sum, s) => sum + s.volume, 0)
    const chosen: Candidate[] = []
    for (const s of eligible) {
      if (weight + s.weight > maxWeight + 1e-9 || volume + s.volume > maxVolume + 1e-9) {
        left.push({ shipment: s, reason: 'overCapacity', weight, volume })
        continue
      }
      weight += s.weight
      volume += s.volume
      chosen.push(s)
    }
    const stops = [...onPlan, ...chosen].sort((a, b) => a.code.localeCompare(b.code))
    const located = stops.filter((s): s is Candidate & { point: Point } => s.point !== null)
    const order = depot
      ? orderStops(
          depot,
          located.map((s) => s.point),
        )
      : located.map((_, i) => i)
    const sequence = [...order.map((i) => located[i] as Candidate), ...stops.filter((s) => s.point === null)]
    const distanceKm = depot
      ? routeKm(
          depot,
          located.map((s) => s.point),
          order,
        )
      : null
    const stopIds = sequence.map((s) => s.id)
    if (stopIds.length > 0) await setStops(trx, schema, planId, stopIds)
    await markAutobatched(trx, schema, planId, distanceKm === null ? null : distanceKm.toFixed(3))
    const leftOut = { noLocation: 0, noZone: 0, overCapacity: 0 }
    for (const entry of left) leftOut[entry.reason]++
    await services.events.publish(trx, schema, {
      type: 'AutobatchCompleted',
      businessId,
      userId: auth.userId,
      payload: { deliveryPlanId: planId, code: plan.code, assigned: chosen.length, leftOut },
    })
    const limits = { maxWeight, maxVolume, namedZones: zoneIds !== null }
    return [
      ...left
        .sort((a, b) => a.shipment.code.localeCompare(b.shipment.code))
        .map((entry) => leftOutMessage(entry, limits)),
      ...stops.filter((s) => s.point === null).map(unroutedMessage),
    ]
  })
}
