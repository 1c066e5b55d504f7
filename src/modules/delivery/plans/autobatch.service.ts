import { sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { type MessageEntry, messageEntry } from '../../../http/envelopes.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { containsPoint, polygonsOf, type ZoneGeometry } from '../zones/geometry.js'
import { activeZones } from '../zones/zones.repository.js'
import { planNotEditable, planNotFound } from './plans.errors.js'
import * as repository from './plans.repository.js'
import { greatCircleKm, orderStops, type Point, routeKm } from './routing.js'

interface Candidate {
  id: string
  code: string
  weight: number
  volume: number
  point: Point | null
}

/** Why a candidate was left out, with what the message says about it. */
type LeftOut =
  | { shipment: Candidate; reason: 'noLocation' }
  | { shipment: Candidate & { point: Point }; reason: 'noZone' }
  | { shipment: Candidate; reason: 'overCapacity'; weight: number; volume: number }

const pointOf = (address: unknown): Point | null => {
  const a = address as { latitude?: unknown; longitude?: unknown } | null
  return a && typeof a.latitude === 'number' && typeof a.longitude === 'number'
    ? { latitude: a.latitude, longitude: a.longitude }
    : null
}

/**
 * The plan's shipments and the unassigned Pending shipments of its day (the business's day, in its
 * time zone, as the plan's day is), locked until commit.
 */
async function loadShipments(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
  day: string,
) {
  const timeZone = sql`(select timezone from ${sql.table(`${schema}.businesses`)} where id = ${businessId})`
  const rows = await trx
    .withSchema(schema)
    .selectFrom('shipments')
    .select(['id', 'code', 'weight', 'volume', 'delivery_address', 'pickup_address', 'delivery_plan_id'])
    .where('business_id', '=', businessId)
    .where((eb) =>
      eb.or([
        eb('delivery_plan_id', '=', planId),
        eb.and([
          eb('delivery_plan_id', 'is', null),
          eb('status', '=', 'Pending'),
          eb('scheduled_date', '>=', sql<Date>`${day}::date::timestamp at time zone ${timeZone}`),
          eb('scheduled_date', '<', sql<Date>`(${day}::date + 1)::timestamp at time zone ${timeZone}`),
        ]),
      ]),
    )
    .orderBy('code')
    .forUpdate()
    .execute()
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
    const vehicle = plan.vehicle_id
      ? await trx
          .withSchema(schema)
          .selectFrom('vehicles')
          .select(['max_weight', 'max_volume'])
          .where('id', '=', plan.vehicle_id)
          .executeTakeFirst()
      : undefined
    const maxWeight = vehicle?.max_weight == null ? Number.POSITIVE_INFINITY : Number(vehicle.max_weight)
    const maxVolume = vehicle?.max_volume == null ? Number.POSITIVE_INFINITY : Number(vehicle.max_volume)
    const zoneIds = plan.delivery_zone_ids.length > 0 ? plan.delivery_zone_ids : null
    const zones = (await activeZones(trx, schema, businessId, zoneIds)).map((z) => ({
      bbox: z,
      polygons: polygonsOf(z.geometry as ZoneGeometry),
    }))
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
          containsPoint(z.polygons, p.longitude, p.latitude),
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
    if (sequence.length > 0) {
      const values = sql.join(sequence.map((s, i) => sql`(${s.id}::uuid, ${i + 1}::int)`))
      await sql`
        UPDATE ${sql.table(`${schema}.shipments`)} AS s
        SET delivery_plan_id = ${planId}, stop_sequence = v.seq,
            status = CASE WHEN s.status = 'Pending' THEN 'Assigned' ELSE s.status END,
            assigned_at = coalesce(s.assigned_at, now()), date_modified = now()
        FROM (VALUES ${values}) AS v (id, seq)
        WHERE s.id = v.id`.execute(trx)
    }
    await trx
      .withSchema(schema)
      .updateTable('delivery_plans')
      .set({
        distance_km: distanceKm === null ? null : distanceKm.toFixed(3),
        autobatched_at: sql<Date>`now()`,
        date_modified: sql<Date>`now()`,
      })
      .where('id', '=', planId)
      .execute()
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

const kg = (n: number) => `${Number(n.toFixed(3))} kg`
const m3 = (n: number) => `${Number(n.toFixed(3))} m³`

/** One Warning entry per shipment left out, naming it and why (the codes are stable). */
function leftOutMessage(
  entry: LeftOut,
  limits: { maxWeight: number; maxVolume: number; namedZones: boolean },
): MessageEntry {
  const { code } = entry.shipment
  const title = `Shipment ${code} left out`
  switch (entry.reason) {
    case 'noLocation':
      return messageEntry(
        'Warning',
        'autobatch_no_coordinates',
        title,
        `Shipment ${code} has no delivery coordinates (latitude and longitude), so no zone or route can place it.`,
      )
    case 'noZone': {
      const { latitude, longitude } = entry.shipment.point
      const zones = limits.namedZones ? "the plan's delivery zones" : 'every active delivery zone'
      return messageEntry(
        'Warning',
        'autobatch_outside_zones',
        title,
        `Shipment ${code}'s delivery point (${latitude}, ${longitude}) lies outside ${zones}.`,
      )
    }
    case 'overCapacity': {
      const over: string[] = []
      const { weight, volume } = entry.shipment
      if (entry.weight + weight > limits.maxWeight + 1e-9)
        over.push(
          `its ${kg(weight)} would take the load to ${kg(entry.weight + weight)} of ${kg(limits.maxWeight)}`,
        )
      if (entry.volume + volume > limits.maxVolume + 1e-9)
        over.push(
          `its ${m3(volume)} would take the volume to ${m3(entry.volume + volume)} of ${m3(limits.maxVolume)}`,
        )
      return messageEntry(
        'Warning',
        'autobatch_over_capacity',
        title,
        `Shipment ${code} does not fit the vehicle: ${over.join(', and ')}.`,
      )
    }
  }
}

/** A shipment already on the plan without coordinates stays on it, after the routed stops. */
const unroutedMessage = (s: Candidate) =>
  messageEntry(
    'Info',
    'autobatch_stop_not_routed',
    `Shipment ${s.code} not routed`,
    `Shipment ${s.code} is on the plan but has no delivery coordinates: it comes after the routed stops and adds nothing to the distance.`,
  )
