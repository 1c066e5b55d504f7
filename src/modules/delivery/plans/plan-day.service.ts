import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSetting } from '../../organisation/index.js'
import { type PlanningProblem, solveInThread } from '../planning-engine/index.js'
import { markAutobatched, setStops } from './autobatch.repository.js'
import { insertDispatchCode } from './dispatch-codes.repository.js'
import { dayShipments, dayVehicles, openPlanOf, openPlanStops } from './plan-day.repository.js'
import type { PlanDayRequest, PlanDayResponse } from './plan-day.schemas.js'
import { dayChangedWhilePlanning } from './plans.errors.js'
import * as repository from './plans.repository.js'
import { greatCircleMatrix, type MatrixProvider, osrmMatrix } from './route-matrix.js'
import type { Point } from './routing.js'

const pointOf = (address: unknown): Point | null => {
  const a = address as { latitude?: unknown; longitude?: unknown } | null
  return a && typeof a.latitude === 'number' && typeof a.longitude === 'number'
    ? { latitude: a.latitude, longitude: a.longitude }
    : null
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** The road network when one is configured, else great-circle distance at the configured speed. */
export function matrixProvider({ config }: AppDeps): MatrixProvider {
  return config.routingOsrmUrl
    ? osrmMatrix(config.routingOsrmUrl, config.routingTimeoutMs)
    : greatCircleMatrix(config.planningSpeedKmh)
}

/** Search effort: enough iterations to settle a day's plan, capped in time; the same input, the same plan. */
const iterationsFor = (stops: number) => Math.min(20_000, 200 + stops * 40)

type Gathered = Awaited<ReturnType<typeof gather>>

/** What a day's plan is made from: the vehicles, the day's unassigned shipments, the stops already planned. */
async function gather(trx: Transaction<Tables>, schema: string, businessId: string, request: PlanDayRequest) {
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
  return { vehicles, rows, kept }
}

/**
 * Plans a day: the business's Pending, unassigned shipments of the date across the chosen (or all
 * active) vehicles, by the planning engine on its own thread, with each vehicle's weight and
 * volume, a shift and a service time per stop. Each vehicle used gets its open (Draft or
 * Scheduled) plan of the day, or a new Draft, with the stops in order; what could not be placed is
 * answered with the reason.
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
  const shiftStart = minutesOf(request.shiftStart ?? '08:00') * 60
  const shiftEnd = minutesOf(request.shiftEnd ?? '18:00') * 60
  if (shiftEnd <= shiftStart) throw invalidField('shiftEnd', 'must be after shiftStart')
  const service = (request.serviceMinutes ?? 5) * 60
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
    rows.map((r) => pointOf(r.pickup_address)).find((p) => p !== null) ??
    located[0]?.point ??
    null
  if (!depot || rows.length === 0 || vehicles.length === 0) {
    for (const row of rows.filter((r) => pointOf(r.delivery_address) !== null))
      leftOut.push({ shipmentId: row.id, code: row.code, reason: 'noVehicle' })
    return { plans: [], leftOut }
  }
  const matrix = await matrixProvider(deps).matrix([depot, ...located.map((l) => l.point)])
  const problem: PlanningProblem = {
    stops: located.map(({ row }, i) => ({
      id: row.id,
      location: i + 1,
      weight: Number(row.weight ?? 0),
      volume: Number(row.volume ?? 0),
      service,
    })),
    vehicles: vehicles.map((v) => ({
      id: v.id,
      start: 0,
      end: 0,
      shift: [shiftStart, shiftEnd] as const,
      ...(v.max_weight == null ? {} : { maxWeight: Number(v.max_weight) }),
      ...(v.max_volume == null ? {} : { maxVolume: Number(v.max_volume) }),
    })),
    matrix,
    initialRoutes: vehicles.map((v) => ({
      vehicleId: v.id,
      stopIds: kept.filter((row) => row.vehicle_id === v.id).map((row) => row.id),
    })),
    fixedStopIds: kept.map((row) => row.id),
  }
  const result = await solveInThread(problem, {
    seed: 1,
    iterations: iterationsFor(located.length),
    timeLimitMs: 20_000,
  })
  const byId = new Map(located.map((l) => [l.row.id, l.row]))
  const midnight = Date.parse(`${request.date}T00:00:00Z`)
  return deps.database.db.transaction().execute(async (trx) => {
    if (!sameDay(day, await gather(trx, schema, businessId, request))) throw dayChangedWhilePlanning()
    const plans: PlanDayResponse['plans'] = []
    for (const route of result.routes) {
      let plan = await openPlanOf(trx, schema, businessId, route.vehicleId, request.date)
      if (!plan) {
        const prefix = await readSetting(trx, schema, businessId, 'dispatch.codePrefix')
        const code = await insertDispatchCode(trx, schema, businessId, prefix, new Date())
        const id = newId()
        await repository.insertPlan(trx, schema, {
          id,
          business_id: businessId,
          code,
          name: null,
          scheduled_date: request.date,
          vehicle_id: route.vehicleId,
          driver_name: null,
          carrier_id: null,
          delivery_zone_ids: [],
          depot: JSON.stringify({ fullAddress: 'Depot', ...depot }),
          notes: null,
        })
        plan = { id, code }
      }
      const ids = route.visits.map((v) => v.stopId)
      await setStops(trx, schema, plan.id, ids)
      await markAutobatched(trx, schema, plan.id, (route.distance / 1000).toFixed(3))
      plans.push({
        deliveryPlanId: plan.id,
        code: plan.code,
        vehicleId: route.vehicleId,
        distanceKm: Number((route.distance / 1000).toFixed(3)),
        stops: route.visits.map((v, i) => ({
          shipmentId: v.stopId,
          code: byId.get(v.stopId)?.code ?? '',
          stopSequence: i + 1,
          plannedArrival: new Date(midnight + v.arrival * 1000).toISOString(),
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

/** The same vehicles, shipments and planned stops, field for field (weights, addresses, plans). */
const sameDay = (a: Gathered, b: Gathered) => JSON.stringify(a) === JSON.stringify(b)
