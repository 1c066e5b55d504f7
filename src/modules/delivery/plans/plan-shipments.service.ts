import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import type { Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { shipmentNotFound } from '../shipments/index.js'
import {
  assignShipment,
  numberStops,
  planShipmentIds,
  releaseShipments,
  shipmentPlacement,
} from './plan-shipments.repository.js'
import {
  planNotEditable,
  planNotFound,
  shipmentNotAssignable,
  shipmentOnAnotherPlan,
} from './plans.errors.js'
import * as repository from './plans.repository.js'

/**
 * Puts a shipment on a plan (the plan row already locked by the caller or here): one conditional
 * UPDATE that only matches a Pending/Assigned shipment on no plan, so a shipment can never end up
 * on two plans. It becomes Assigned and the last stop. `field` names the input for a 400.
 */
export async function addShipmentToPlan(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  planId: string,
  shipmentId: string,
  field?: string,
) {
  const { schemaName: schema, businessId } = auth
  if (await assignShipment(trx, schema, businessId, planId, shipmentId)) return
  const current = await shipmentPlacement(trx, schema, businessId, shipmentId)
  if (!current) {
    if (field) throw invalidField(field, 'must be a shipment of this business')
    throw shipmentNotFound()
  }
  if (current.delivery_plan_id === planId) return
  if (current.delivery_plan_id) throw shipmentOnAnotherPlan(current.code ?? '')
  throw shipmentNotAssignable(current.status)
}

/** Locks the plan until commit; 404 when it is not the business's, 409 unless Draft or Scheduled. */
async function editablePlan(trx: Transaction<Tables>, auth: BusinessAuth, planId: string) {
  const plan = await repository.lockPlan(trx, auth.schemaName, auth.businessId, planId)
  if (!plan) throw planNotFound()
  if (plan.status !== 'Draft' && plan.status !== 'Scheduled') throw planNotEditable(plan.status)
  return plan
}

/**
 * Puts a shipment on a Draft or Scheduled plan in the caller's transaction: locks the plan (404
 * delivery_plan_not_found, 409 plan_not_editable), then adds the shipment as its last stop (404
 * shipment_not_found, 409 shipment_on_another_plan or shipment_not_assignable; already on it: done).
 */
export async function putShipmentOnPlan(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  planId: string,
  shipmentId: string,
) {
  await editablePlan(trx, auth, planId)
  await addShipmentToPlan(trx, auth, planId, shipmentId)
}

export async function addShipment(
  database: Database,
  auth: BusinessAuth,
  planId: string,
  shipmentId: string,
) {
  return database.db.transaction().execute(async (trx) => {
    await putShipmentOnPlan(trx, auth, planId, shipmentId)
    return true
  })
}

/** Takes a shipment off a Draft or Scheduled plan; it is unassigned again (Pending). 404 when not on this plan. */
export async function removeShipment(
  database: Database,
  auth: BusinessAuth,
  planId: string,
  shipmentId: string,
) {
  return database.db.transaction().execute(async (trx) => {
    await editablePlan(trx, auth, planId)
    const released = await releaseShipments(trx, auth.schemaName, planId, shipmentId)
    if (released === 0n) throw shipmentNotFound()
    return true
  })
}

/**
 * Re-orders a Draft or Scheduled plan's stops (a dispatcher's own order, by drag or keyboard): the
 * list must name every shipment on the plan once, else a 400 naming shipmentIds says which are
 * missing or not on it. The plan row is locked, so a shipment added or taken off meanwhile is
 * seen.
 */
export async function reorderStops(
  database: Database,
  auth: BusinessAuth,
  planId: string,
  shipmentIds: readonly string[],
) {
  await database.db.transaction().execute(async (trx) => {
    await editablePlan(trx, auth, planId)
    const current = await planShipmentIds(trx, auth.schemaName, planId)
    const on = new Set(current)
    const given = new Set(shipmentIds)
    if (given.size !== shipmentIds.length) throw invalidField('shipmentIds', 'must name each shipment once')
    const strangers = shipmentIds.filter((id) => !on.has(id))
    if (strangers.length > 0) throw invalidField('shipmentIds', `not on this plan: ${strangers.join(', ')}`)
    const missing = current.filter((id) => !given.has(id))
    if (missing.length > 0)
      throw invalidField(
        'shipmentIds',
        `must name every shipment on the plan; missing: ${missing.join(', ')}`,
      )
    await numberStops(trx, auth.schemaName, planId, shipmentIds)
  })
}
