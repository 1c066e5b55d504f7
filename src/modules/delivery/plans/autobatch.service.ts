import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import type { MessageEntry } from '../../../http/envelopes.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSettings } from '../../organisation/index.js'
import { activeZones, prepareZones } from '../zones/index.js'
import { leftOutMessage, unroutedMessage } from './autobatch.messages.js'
import { type AutobatchInput, autobatchPlan } from './autobatch.plan.js'
import { autobatchShipments, autobatchVersions, markAutobatched, setStops } from './autobatch.repository.js'
import { pointOf } from './plan-day.problem.js'
import { dayBusiness } from './plan-day.repository.js'
import { planVehicle } from './plan-route.repository.js'
import { planChangedWhilePlanning, planNotEditable, planNotFound } from './plans.errors.js'
import * as repository from './plans.repository.js'

/**
 * What autobatch plans from: the plan (locked; Draft or Scheduled, else 409), its vehicle, its
 * shipments and the unassigned Pending shipments of its day (locked), which of those lie outside the
 * plan's zones (every active zone when it names none), the business's time zone and planning settings.
 */
async function gather(trx: Transaction<Tables>, schema: string, businessId: string, planId: string) {
  const { plan, vehicle, heads, business, settings } = await planHeads(trx, schema, businessId, planId)
  const { prepared } = await prepareZones(trx, schema, businessId, heads)
  const rows = await autobatchShipments(trx, schema, businessId, planId, plan.scheduled_date)
  const outsideZones = rows.flatMap((row) => {
    const p = row.delivery_plan_id === null ? pointOf(row.delivery_address) : null
    if (!p) return []
    const inside = heads.some(
      (z) =>
        p.longitude >= z.min_longitude &&
        p.longitude <= z.max_longitude &&
        p.latitude >= z.min_latitude &&
        p.latitude <= z.max_latitude &&
        prepared.get(z.id)?.contains(p.longitude, p.latitude),
    )
    return inside ? [] : [row.id]
  })
  const input: AutobatchInput = {
    plan,
    vehicle,
    rows,
    outsideZones,
    timeZone: business.timezone,
    serviceMinutes: settings['delivery.defaultServiceMinutes'],
    speedKmh: settings['delivery.averageSpeedKmh'],
  }
  const stamp = stampOf({ plan, vehicle, heads, business, settings }, rows)
  return { input, stamp }
}

/** The plan (locked; Draft or Scheduled, else 409), its vehicle, its zones, the business and its settings. */
async function planHeads(trx: Transaction<Tables>, schema: string, businessId: string, planId: string) {
  const plan = await repository.lockPlan(trx, schema, businessId, planId)
  if (!plan) throw planNotFound()
  if (plan.status !== 'Draft' && plan.status !== 'Scheduled') throw planNotEditable(plan.status)
  const vehicle = plan.vehicle_id
    ? ((await planVehicle(trx, schema, businessId, plan.vehicle_id)) ?? null)
    : null
  const zoneIds = plan.delivery_zone_ids.length > 0 ? plan.delivery_zone_ids : null
  const heads = await activeZones(trx, schema, businessId, zoneIds)
  const business = await dayBusiness(trx, schema, businessId)
  const settings = await readSettings(trx, schema, businessId)
  return { plan, vehicle, heads, business, settings }
}

/**
 * Everything the plan was made from, as text to compare: the plan, vehicle, zones (with their
 * revisions), business and settings in full, the shipments by id and row version (which any
 * change to a shipment changes). Which shipments lie outside the zones follows from these.
 */
const stampOf = (
  heads: Awaited<ReturnType<typeof planHeads>>,
  rows: readonly { id: string; version: string }[],
) => JSON.stringify({ ...heads, rows: rows.map((r) => [r.id, r.version]) })

/**
 * Reads, under the same locks as the first read, only what tells whether anything the plan was
 * made from changed: not the shipments' addresses and loads nor the zones' geometry again (on
 * 1,000 shipments over ten large zones that read cost as much as the first, 120-300 ms embedded).
 */
async function restamp(trx: Transaction<Tables>, schema: string, businessId: string, planId: string) {
  const heads = await planHeads(trx, schema, businessId, planId)
  const rows = await autobatchVersions(trx, schema, businessId, planId, heads.plan.scheduled_date)
  return stampOf(heads, rows)
}

/**
 * Autobatch: fills a Draft or Scheduled plan with the unassigned Pending shipments of its day whose
 * delivery point lies in one of its zones (every active zone when it names none), and orders all its
 * stops, with the planning engine: one vehicle (the plan's, with its weight and volume, shift, end
 * location and breaks; else unlimited, 08:00-18:00) from the plan's depot, each shipment's delivery
 * windows and service time honoured. It serves as many shipments as it can, then drives the least;
 * the plan's own shipments always stay on it. The sequence, planned arrival and departure of each
 * stop and the distance are stored. Deterministic: the same plan and shipments give the same route.
 *
 * As plan-day, the search runs between two transactions: the second takes the same locks again and
 * answers 409 plan_changed, writing nothing, if anything the plan was made from changed meanwhile
 * (compared by row version for the shipments). Leaves a
 * notification with the counts (via a domain event); answers one message per shipment left out.
 */
export async function autobatch(deps: AppDeps, auth: BusinessAuth, planId: string): Promise<MessageEntry[]> {
  const { schemaName: schema, businessId } = auth
  const { input, stamp } = await deps.database.db
    .transaction()
    .execute((trx) => gather(trx, schema, businessId, planId))
  const planned = await autobatchPlan(deps, input)
  return deps.database.db.transaction().execute(async (trx) => {
    if ((await restamp(trx, schema, businessId, planId)) !== stamp) throw planChangedWhilePlanning()
    if (planned.stops.length > 0)
      await setStops(
        trx,
        schema,
        planId,
        planned.stops.map((s) => s.id),
        planned.stops.map((s) => s.times ?? null),
      )
    await markAutobatched(
      trx,
      schema,
      planId,
      planned.distanceKm === null ? null : planned.distanceKm.toFixed(3),
    )
    const leftOut = {
      noLocation: 0,
      noZone: 0,
      overCapacity: 0,
      outsideWindows: 0,
      outsideShift: 0,
      unreachable: 0,
    }
    for (const entry of planned.left) leftOut[entry.reason]++
    await deps.services.events.publish(trx, schema, {
      type: 'AutobatchCompleted',
      businessId,
      userId: auth.userId,
      payload: { deliveryPlanId: planId, code: input.plan.code, assigned: planned.assigned, leftOut },
    })
    const vehicle = input.vehicle
    const limits = {
      maxWeight: vehicle?.max_weight == null ? Number.POSITIVE_INFINITY : Number(vehicle.max_weight),
      maxVolume: vehicle?.max_volume == null ? Number.POSITIVE_INFINITY : Number(vehicle.max_volume),
      namedZones: input.plan.delivery_zone_ids.length > 0,
    }
    return [
      ...planned.left
        .sort((a, b) => a.shipment.code.localeCompare(b.shipment.code))
        .map((entry) => leftOutMessage(entry, limits)),
      ...planned.unrouted
        .sort((a, b) => a.shipment.code.localeCompare(b.shipment.code))
        .map((u) => unroutedMessage(u.shipment, u.why)),
    ]
  })
}
