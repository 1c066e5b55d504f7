import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSetting, readSettings } from '../../organisation/index.js'
import { minutesOf } from '../vehicles/index.js'
import { markAutobatched, setStops } from './autobatch.repository.js'
import { insertDispatchCode } from './dispatch-codes.repository.js'
import { dayProblem, pointOf } from './plan-day.problem.js'
import { dayBusiness, dayShipments, dayVehicles, openPlanOf, openPlanStops } from './plan-day.repository.js'
import type { PlanDayRequest, PlanDayResponse } from './plan-day.schemas.js'
import {
  DEFAULT_SERVICE_MINUTES,
  DEFAULT_SHIFT,
  settingNumber,
  solvePlan,
  travelMatrix,
} from './plan-engine.js'
import { dayChangedWhilePlanning } from './plans.errors.js'
import * as repository from './plans.repository.js'

type Gathered = Awaited<ReturnType<typeof gather>>

/**
 * What a day's plan is made from: the business (time zone, address) and its planning settings, the
 * vehicles, the day's unassigned shipments, the stops already planned.
 */
async function gather(trx: Transaction<Tables>, schema: string, businessId: string, request: PlanDayRequest) {
  const business = await dayBusiness(trx, schema, businessId)
  const settings = await readSettings(trx, schema, businessId)
  const vehicles = await dayVehicles(trx, schema, businessId, request.vehicleIds ?? null)
  const rows = await dayShipments(trx, schema, businessId, request.date)
  const kept = (
    await openPlanStops(
      trx,
      schema,
      businessId,
      request.date,
      vehicles.map((v) => v.id),
    )
  ).filter((row) => pointOf(row.delivery_address) !== null)
  return {
    business,
    serviceMinutes: settings['delivery.defaultServiceMinutes'],
    speedKmh: settings['delivery.averageSpeedKmh'],
    vehicles,
    rows,
    kept,
  }
}

/**
 * Plans a day: the business's Pending, unassigned shipments of the date across the chosen (or all
 * active) vehicles, by the planning engine on its own thread, with each vehicle's weight and
 * volume, shift, start and end and breaks, and each shipment's delivery windows and service time.
 * Each vehicle used gets its open (Draft or Scheduled) plan of the day, or a new Draft, with the
 * stops in order and their planned times stored on them; what could not be placed is answered
 * with the engine's reason.
 *
 * The search (up to 20 s) and the road network's matrix run between two transactions, never inside
 * one: a transaction held that long would hold its rows' locks, and on the embedded database its
 * one connection, from every other request. The second transaction reads the day again under
 * locks; if anything the plan was made from changed meanwhile, it answers 409 and writes nothing.
 */
export async function planDay(
  deps: AppDeps,
  auth: BusinessAuth,
  request: PlanDayRequest,
): Promise<PlanDayResponse> {
  const { schemaName: schema, businessId } = auth
  const shift = {
    start: request.shiftStart ?? DEFAULT_SHIFT.start,
    end: request.shiftEnd ?? DEFAULT_SHIFT.end,
  }
  if (minutesOf(shift.end) <= minutesOf(shift.start))
    throw invalidField('shiftEnd', 'must be after shiftStart')
  const day = await deps.database.db.transaction().execute((trx) => gather(trx, schema, businessId, request))
  const { vehicles, rows, kept } = day
  if (request.vehicleIds && vehicles.length !== request.vehicleIds.length) {
    const found = new Set(vehicles.map((v) => v.id))
    const missing = request.vehicleIds.findIndex((id) => !found.has(id))
    throw invalidField(`vehicleIds.${missing}`, 'must be an active vehicle of this business')
  }
  // Stops already on the vehicles' open plans stay where they are; the new ones go in around them.
  const located = [...kept, ...rows].flatMap((row) => {
    const point = pointOf(row.delivery_address)
    return point ? [{ row, point }] : []
  })
  const leftOut: PlanDayResponse['leftOut'] = rows
    .filter((row) => pointOf(row.delivery_address) === null)
    .map((row) => ({ shipmentId: row.id, code: row.code, reason: 'noLocation' }))
  const depot =
    request.depot ??
    pointOf(day.business.address) ??
    rows.map((r) => pointOf(r.pickup_address)).find((p) => p !== null) ??
    located[0]?.point ??
    null
  if (!depot || rows.length === 0 || vehicles.length === 0) {
    for (const row of rows.filter((r) => pointOf(r.delivery_address) !== null))
      leftOut.push({ shipmentId: row.id, code: row.code, reason: 'noVehicle' })
    return { plans: [], leftOut }
  }
  const built = dayProblem({
    date: request.date,
    timeZone: day.business.timezone,
    vehicles,
    stops: located,
    keptIds: kept.map((row) => row.id),
    depot,
    shift,
    serviceMinutes:
      request.serviceMinutes ?? settingNumber(day.serviceMinutes, true) ?? DEFAULT_SERVICE_MINUTES,
  })
  const speed = settingNumber(day.speedKmh, false)
  const matrix = await travelMatrix(deps, built.points, speed)
  const result = await solvePlan({ ...built.problem, matrix })
  const byId = new Map(located.map((l) => [l.row.id, l.row]))
  const at = (seconds: number) => new Date(built.origin + Math.round(seconds * 1000))
  return deps.database.db.transaction().execute(async (trx) => {
    if (!sameDay(day, await gather(trx, schema, businessId, request))) throw dayChangedWhilePlanning()
    const plans: PlanDayResponse['plans'] = []
    for (const route of result.routes) {
      const plan = await openOrNewPlan(trx, schema, businessId, request.date, route.vehicleId, () =>
        JSON.stringify({ fullAddress: 'Depot', ...(built.startOf.get(route.vehicleId) ?? depot) }),
      )
      const times = route.visits.map((v) => ({ arrival: at(v.start), departure: at(v.departure) }))
      await setStops(
        trx,
        schema,
        plan.id,
        route.visits.map((v) => v.stopId),
        times,
      )
      await markAutobatched(trx, schema, plan.id, (route.distance / 1000).toFixed(3))
      plans.push({
        deliveryPlanId: plan.id,
        code: plan.code,
        vehicleId: route.vehicleId,
        distanceKm: Number((route.distance / 1000).toFixed(3)),
        startsAt: at(route.departure).toISOString(),
        endsAt: at(route.arrival).toISOString(),
        stops: route.visits.map((v, i) => ({
          shipmentId: v.stopId,
          code: byId.get(v.stopId)?.code ?? '',
          stopSequence: i + 1,
          plannedArrival: times[i]?.arrival.toISOString() ?? '',
          plannedDeparture: times[i]?.departure.toISOString() ?? '',
        })),
        breaks: route.breaks.map((b) => ({
          start: at(b.start).toISOString(),
          end: at(b.end).toISOString(),
          afterStopSequence: b.afterVisits,
        })),
      })
    }
    for (const u of result.unassigned) {
      leftOut.push({ shipmentId: u.stopId, code: byId.get(u.stopId)?.code ?? '', reason: u.reason })
    }
    leftOut.sort((a, b) => a.code.localeCompare(b.code))
    return { plans, leftOut }
  })
}

/** The vehicle's open plan of the day, or a new Draft starting at `depot`. */
async function openOrNewPlan(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  date: string,
  vehicleId: string,
  depot: () => string,
) {
  const open = await openPlanOf(trx, schema, businessId, vehicleId, date)
  if (open) return open
  const prefix = await readSetting(trx, schema, businessId, 'dispatch.codePrefix')
  const code = await insertDispatchCode(trx, schema, businessId, prefix, new Date())
  const id = newId()
  await repository.insertPlan(trx, schema, {
    id,
    business_id: businessId,
    code,
    name: null,
    scheduled_date: date,
    vehicle_id: vehicleId,
    driver_name: null,
    carrier_id: null,
    delivery_zone_ids: [],
    depot: depot(),
    notes: null,
  })
  return { id, code }
}

/** The same business, settings, vehicles, shipments and planned stops, field for field. */
const sameDay = (a: Gathered, b: Gathered) => JSON.stringify(a) === JSON.stringify(b)
