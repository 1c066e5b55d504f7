import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import { SHIPMENT_COLUMNS } from '../shipments/index.js'

/** The shipments on several plans, in stop order (then code), in one query. */
export function shipmentsOnPlans(db: Executor, schema: string, planIds: readonly string[]) {
  if (planIds.length === 0) return Promise.resolve([])
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .select(SHIPMENT_COLUMNS)
    .where('s.delivery_plan_id', 'in', planIds)
    .orderBy('s.delivery_plan_id')
    .orderBy(sql`s.stop_sequence nulls last`)
    .orderBy('s.code')
    .execute()
}

/**
 * One conditional UPDATE: only a Pending or Assigned shipment of the business on no plan goes on
 * the plan, Assigned and as its last stop. Undefined when it did not match.
 */
export function assignShipment(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
  shipmentId: string,
) {
  return trx
    .withSchema(schema)
    .updateTable('shipments')
    .set({
      delivery_plan_id: planId,
      status: 'Assigned',
      assigned_at: sql<Date>`coalesce(assigned_at, now())`,
      stop_sequence: sql<number>`(select coalesce(max(stop_sequence), 0) + 1 from ${sql.table(`${schema}.shipments`)} where delivery_plan_id = ${planId})`,
      // Times come from planning the day; a stop added by hand has none until it is planned again.
      planned_arrival: null,
      planned_departure: null,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', shipmentId)
    .where('business_id', '=', businessId)
    .where('delivery_plan_id', 'is', null)
    .where('status', 'in', ['Pending', 'Assigned'])
    .returning('id')
    .executeTakeFirst()
}

/** A shipment's status and the plan it is on (with that plan's code), to say why it cannot go on another. */
export function shipmentPlacement(db: Executor, schema: string, businessId: string, shipmentId: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .leftJoin('delivery_plans as p', 'p.id', 's.delivery_plan_id')
    .select(['s.status', 's.delivery_plan_id', 'p.code'])
    .where('s.id', '=', shipmentId)
    .where('s.business_id', '=', businessId)
    .executeTakeFirst()
}

/** Shipments of a plan back to unassigned: Assigned ones become Pending again. */
export async function releaseShipments(
  trx: Transaction<Tables>,
  schema: string,
  planId: string,
  shipmentId?: string,
) {
  let query = trx
    .withSchema(schema)
    .updateTable('shipments')
    .set({
      delivery_plan_id: null,
      stop_sequence: null,
      planned_arrival: null,
      planned_departure: null,
      status: sql<string>`case when status = 'Assigned' then 'Pending' else status end`,
      assigned_at: sql<Date | null>`case when status = 'Assigned' then null else assigned_at end`,
      date_modified: sql<Date>`now()`,
    })
    .where('delivery_plan_id', '=', planId)
  if (shipmentId) query = query.where('id', '=', shipmentId)
  return (await query.executeTakeFirst()).numUpdatedRows
}

/** The plan's Pending and Assigned shipments go InTransit, stamped `at`. */
/**
 * Puts the plan's Pending and Assigned shipments InTransit; answers each one moved with the status
 * it left, for its ShipmentStatusChanged event.
 */
export async function dispatchShipments(trx: Transaction<Tables>, schema: string, planId: string, at: Date) {
  const shipments = sql.table(`${schema}.shipments`)
  const { rows } = await sql<{ id: string; code: string; from: string }>`
    UPDATE ${shipments} AS s SET status = 'InTransit', dispatched_at = ${at}, date_modified = ${at}
    FROM (SELECT id, status FROM ${shipments}
          WHERE delivery_plan_id = ${planId} AND status IN ('Pending', 'Assigned') FOR UPDATE) AS before
    WHERE s.id = before.id
    RETURNING s.id, s.code, before.status AS "from"`.execute(trx)
  return rows
}

/** The codes of the plan's shipments not in one of `finished`, in code order. */
export async function openShipmentCodes(
  trx: Transaction<Tables>,
  schema: string,
  planId: string,
  finished: readonly string[],
) {
  const open = await trx
    .withSchema(schema)
    .selectFrom('shipments')
    .select('code')
    .where('delivery_plan_id', '=', planId)
    .where('status', 'not in', finished)
    .orderBy('code')
    .execute()
  return open.map((s) => s.code)
}

/** The plan a shipment of the business is on: undefined for an unknown shipment, null when on none. */
export async function planIdOfShipment(db: Executor, schema: string, businessId: string, shipmentId: string) {
  const shipment = await db
    .withSchema(schema)
    .selectFrom('shipments')
    .select('delivery_plan_id')
    .where('id', '=', shipmentId)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
  return shipment?.delivery_plan_id
}

/** How many shipments of the business are on no plan and can still go on one. */
export async function unassignedShipmentCount(db: Executor, schema: string, businessId: string) {
  const { n } = await db
    .withSchema(schema)
    .selectFrom('shipments')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('business_id', '=', businessId)
    .where('delivery_plan_id', 'is', null)
    .where('status', 'in', ['Pending', 'Assigned'])
    .executeTakeFirstOrThrow()
  return Number(n)
}

/** The ids of a plan's shipments, in stop order. */
export async function planShipmentIds(trx: Transaction<Tables>, schema: string, planId: string) {
  const rows = await trx
    .withSchema(schema)
    .selectFrom('shipments')
    .select('id')
    .where('delivery_plan_id', '=', planId)
    .orderBy(sql`stop_sequence nulls last`)
    .orderBy('code')
    .execute()
  return rows.map((row) => row.id)
}

/**
 * Numbers the plan's stops 1..n in the order given. Planned times are cleared: they belonged to the
 * old order (planning the day or re-optimising sets them again).
 */
export async function numberStops(
  trx: Transaction<Tables>,
  schema: string,
  planId: string,
  shipmentIds: readonly string[],
) {
  const values = sql.join(shipmentIds.map((id, i) => sql`(${id}::uuid, ${i + 1}::int)`))
  await sql`
    UPDATE ${sql.table(`${schema}.shipments`)} AS s
    SET stop_sequence = v.seq, planned_arrival = NULL, planned_departure = NULL, date_modified = now()
    FROM (VALUES ${values}) AS v (id, seq)
    WHERE s.id = v.id AND s.delivery_plan_id = ${planId}`.execute(trx)
}
