import { sql, type Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import type { Tables } from '../../../db/tables.js'
import { conflict, invalidField } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { shipmentNotFound } from '../shipments/shipments.service.js'
import { planNotEditable, planNotFound, shipmentOnAnotherPlan } from './plans.errors.js'
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
  const db = trx.withSchema(auth.schemaName)
  const moved = await db
    .updateTable('shipments')
    .set({
      delivery_plan_id: planId,
      status: 'Assigned',
      assigned_at: sql<Date>`coalesce(assigned_at, now())`,
      stop_sequence: sql<number>`(select coalesce(max(stop_sequence), 0) + 1 from ${sql.table(`${auth.schemaName}.shipments`)} where delivery_plan_id = ${planId})`,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', shipmentId)
    .where('business_id', '=', auth.businessId)
    .where('delivery_plan_id', 'is', null)
    .where('status', 'in', ['Pending', 'Assigned'])
    .returning('id')
    .executeTakeFirst()
  if (moved) return
  const current = await db
    .selectFrom('shipments as s')
    .leftJoin('delivery_plans as p', 'p.id', 's.delivery_plan_id')
    .select(['s.status', 's.delivery_plan_id', 'p.code'])
    .where('s.id', '=', shipmentId)
    .where('s.business_id', '=', auth.businessId)
    .executeTakeFirst()
  if (!current) {
    if (field) throw invalidField(field, 'must be a shipment of this business')
    throw shipmentNotFound()
  }
  if (current.delivery_plan_id === planId) return
  if (current.delivery_plan_id) throw shipmentOnAnotherPlan(current.code ?? '')
  throw conflict(
    'shipment_not_assignable',
    `A ${current.status} shipment cannot be put on a plan; only Pending and Assigned ones can.`,
  )
}

async function editablePlan(trx: Transaction<Tables>, auth: BusinessAuth, planId: string) {
  const plan = await repository.lockPlan(trx, auth.schemaName, auth.businessId, planId)
  if (!plan) throw planNotFound()
  if (plan.status !== 'Draft' && plan.status !== 'Scheduled') throw planNotEditable(plan.status)
  return plan
}

export async function addShipment(
  database: Database,
  auth: BusinessAuth,
  planId: string,
  shipmentId: string,
) {
  return database.db.transaction().execute(async (trx) => {
    await editablePlan(trx, auth, planId)
    await addShipmentToPlan(trx, auth, planId, shipmentId)
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
    const released = await repository.releaseShipments(trx, auth.schemaName, planId, shipmentId)
    if (released === 0n) throw shipmentNotFound()
    return true
  })
}
