import type { Transaction } from 'kysely'
import { lockedAt } from '../../../db/applied-at.js'
import type { Tables } from '../../../db/tables.js'
import type { MessageEntry } from '../../../http/envelopes.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSettings } from '../../organisation/index.js'
import { notReoptimisedMessage } from './autobatch.messages.js'
import { setStops, storeDistance } from './autobatch.repository.js'
import { dayBusiness } from './plan-day.repository.js'
import { planStops, planVehicle } from './plan-route.repository.js'
import { planChangedWhilePlanning, planNotFound, planNotReoptimisable } from './plans.errors.js'
import * as repository from './plans.repository.js'
import type { DispatchResponse } from './plans.schemas.js'
import { loadPlan } from './plans.service.js'
import { type ReoptimiseInput, reoptimisePlan } from './reoptimise.plan.js'

/** The plans whose stops may be re-ordered: not yet on the road, or on it. */
export const REOPTIMISABLE = ['Draft', 'Scheduled', 'Dispatched'] as const

/** What re-optimising plans from: the plan (locked), its vehicle, its stops (locked), the business's settings. */
async function gather(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
): Promise<ReoptimiseInput> {
  const plan = await repository.lockPlan(trx, schema, businessId, planId)
  if (!plan) throw planNotFound()
  if (!(REOPTIMISABLE as readonly string[]).includes(plan.status)) throw planNotReoptimisable(plan.status)
  const vehicle = plan.vehicle_id
    ? ((await planVehicle(trx, schema, businessId, plan.vehicle_id)) ?? null)
    : null
  const stops = await planStops(trx, schema, businessId, planId)
  const business = await dayBusiness(trx, schema, businessId)
  const settings = await readSettings(trx, schema, businessId)
  return {
    plan,
    vehicle,
    stops,
    timeZone: business.timezone,
    serviceMinutes: settings['delivery.defaultServiceMinutes'],
    speedKmh: settings['delivery.averageSpeedKmh'],
  }
}

/**
 * Re-optimises a Draft, Scheduled or Dispatched plan (reoptimise.plan.ts says how): stores the new
 * stop order, each open stop's planned arrival and departure and the distance, and publishes
 * PlanReoptimised (a notification, the webhook delivery_plan.reoptimised) with the open stops' new
 * arrivals, in one transaction. As autobatch, the search runs between two transactions, and the
 * second answers 409 plan_changed, writing nothing, if the plan, its vehicle or any of its stops
 * changed meanwhile (a second re-optimisation that read the plan before this one wrote included).
 */
export async function reoptimise(
  deps: AppDeps,
  auth: BusinessAuth,
  planId: string,
): Promise<{ plan: DispatchResponse; messages: MessageEntry[] }> {
  const { schemaName: schema, businessId } = auth
  const read = (trx: Transaction<Tables>) => gather(trx, schema, businessId, planId)
  const { input, now } = await deps.database.db
    .transaction()
    .execute(async (trx) => ({ input: await read(trx), now: await lockedAt(trx) }))
  const planned = await reoptimisePlan(deps, input, now)
  return deps.database.db.transaction().execute(async (trx) => {
    if (JSON.stringify(await read(trx)) !== JSON.stringify(input)) throw planChangedWhilePlanning()
    if (planned.stops.length > 0)
      await setStops(
        trx,
        schema,
        planId,
        planned.stops.map((s) => s.row.id),
        planned.stops.map((s) => s.times),
      )
    await storeDistance(trx, schema, planId, planned.distanceKm.toFixed(3))
    await deps.services.events.publish(trx, schema, {
      type: 'PlanReoptimised',
      businessId,
      userId: auth.userId,
      payload: {
        deliveryPlanId: planId,
        code: input.plan.code,
        kept: planned.kept,
        stops: planned.stops.slice(planned.kept).map((s, i) => ({
          shipmentId: s.row.id,
          code: s.row.code,
          stopSequence: planned.kept + i + 1,
          plannedArrival: s.times.arrival?.toISOString() ?? null,
        })),
      },
    })
    const messages = planned.unrouted
      .sort((a, b) => a.row.code.localeCompare(b.row.code))
      .map((u) => notReoptimisedMessage(u.row, u.why))
    return { plan: await loadPlan(trx, auth, planId), messages }
  })
}
