import { type Insertable, sql } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Executor, Tables } from '../../../db/tables.js'

/** The shipment a stop operation is about, its row locked so its operations are recorded in turn. */
export function lockShipment(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments')
    .select(['id', 'code', 'status', 'delivery_plan_id', 'dispatched_at'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** The business's files among `ids`, with what the proof rules check. */
export function filesOf(db: Executor, schema: string, businessId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .withSchema(schema)
    .selectFrom('files')
    .select(['id', 'content_type', 'size_bytes'])
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute()
}

export type NewStopOperation = Insertable<Tables['stop_operations']>

/** Records an operation; an arrival already recorded for the shipment on its plan inserts nothing (undefined). */
export function insertOperation(db: Executor, schema: string, row: NewStopOperation) {
  const insert = db.withSchema(schema).insertInto('stop_operations').values(row)
  return (row.kind === 'Arrived' ? insert.onConflict((oc) => oc.doNothing()) : insert)
    .returning('id')
    .executeTakeFirst()
}

/** The shipment (code, status) and its operations oldest first, in one statement. */
export function shipmentWithOperations(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .leftJoin('stop_operations as o', (join) =>
      join.onRef('o.shipment_id', '=', 's.id').onRef('o.business_id', '=', 's.business_id'),
    )
    .select(['s.id as shipment_id', 's.code', 's.status'])
    .select([
      'o.id',
      'o.delivery_plan_id',
      'o.kind',
      'o.occurred_at',
      'o.latitude',
      'o.longitude',
      'o.recipient_name',
      'o.signature_file_id',
      'o.photo_file_ids',
      'o.note',
      'o.reason',
      'o.after_failure',
      'o.resolution',
      'o.date_created',
    ])
    .where('s.business_id', '=', businessId)
    .where('s.id', '=', id)
    .orderBy('o.occurred_at')
    .orderBy('o.date_created')
    .execute()
}
export type OperationRow = Awaited<ReturnType<typeof shipmentWithOperations>>[number]

/**
 * The plan's failed shipments with the choice their failure report on this plan made (null: the
 * setting's), and whether a stop reported it at all (a failure may come from the shipment's own
 * status move, which records no stop).
 */
export function failedOnPlan(db: Executor, schema: string, businessId: string, planId: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('stop_operations as o')
          .select(['o.id', 'o.after_failure'])
          .whereRef('o.shipment_id', '=', 's.id')
          .where('o.delivery_plan_id', '=', planId)
          .where('o.kind', '=', 'Failed')
          .orderBy('o.date_created', 'desc')
          .limit(1)
          .as('o'),
      (join) => join.onTrue(),
    )
    .select(['s.id', 's.failed_at', 's.fail_reason', 'o.after_failure', 'o.id as operation_id'])
    .where('s.business_id', '=', businessId)
    .where('s.delivery_plan_id', '=', planId)
    .where('s.status', '=', 'Failed')
    .execute()
}
export type FailedOnPlan = Awaited<ReturnType<typeof failedOnPlan>>[number]

/**
 * The stop record of each failure no stop reported (the shipment's own status move failed it),
 * from the shipment's failure time and reason: the plan keeps it once the shipment leaves.
 */
export async function recordUnreportedFailures(
  db: Executor,
  schema: string,
  businessId: string,
  planId: string,
  failed: readonly FailedOnPlan[],
) {
  const rows: NewStopOperation[] = failed
    .filter((s) => s.operation_id === null)
    .map((s) => ({
      id: newId(),
      business_id: businessId,
      shipment_id: s.id,
      delivery_plan_id: planId,
      kind: 'Failed',
      // A Failed shipment always has its failed_at; the fallback only satisfies the type.
      occurred_at: s.failed_at ?? new Date(),
      reason: s.fail_reason,
    }))
  if (rows.length > 0) await db.withSchema(schema).insertInto('stop_operations').values(rows).execute()
}

/**
 * Failed shipments back to Pending and off the plan, for a later plan (their failure stays in
 * stop_operations, with the plan); or on to Returned.
 */
export async function resolveFailed(
  db: Executor,
  schema: string,
  planId: string,
  ids: readonly string[],
  to: 'Replanned' | 'Returned',
) {
  if (ids.length === 0) return
  const shipments = db
    .withSchema(schema)
    .updateTable('shipments')
    .where('id', 'in', ids)
    .where('status', '=', 'Failed')
  await (to === 'Replanned'
    ? shipments.set({
        status: 'Pending',
        delivery_plan_id: null,
        stop_sequence: null,
        planned_arrival: null,
        planned_departure: null,
        assigned_at: null,
        dispatched_at: null,
        date_modified: sql<Date>`clock_timestamp()`,
      })
    : shipments.set({
        status: 'Returned',
        returned_at: sql<Date>`clock_timestamp()`,
        date_modified: sql<Date>`clock_timestamp()`,
      })
  ).execute()
  await db
    .withSchema(schema)
    .updateTable('stop_operations')
    .set({ resolution: to })
    .where('shipment_id', 'in', ids)
    .where('delivery_plan_id', '=', planId)
    .where('kind', '=', 'Failed')
    .where('resolution', 'is', null)
    .execute()
}
