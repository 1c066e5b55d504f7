import { sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { STOP_COLUMNS } from './plan-day.repository.js'

/**
 * The shipments autobatch plans from: the plan's and the unassigned Pending ones of its day (the
 * business's day, in its time zone, as the plan's day is).
 */
function autobatchScope(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
  day: string,
) {
  const timeZone = sql`(select timezone from ${sql.table(`${schema}.businesses`)} where id = ${businessId})`
  return trx
    .withSchema(schema)
    .selectFrom('shipments')
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
}

/**
 * The shipments autobatch plans from, in code order, locked until commit, each with its row
 * version (`xmin`: the transaction that last wrote the row, which every UPDATE changes whatever
 * columns it sets, and locking does not).
 */
export function autobatchShipments(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
  day: string,
) {
  return autobatchScope(trx, schema, businessId, planId, day)
    .select([...STOP_COLUMNS, 'delivery_plan_id', 'stop_sequence'])
    .select(sql<string>`xmin::text`.as('version'))
    .orderBy('code')
    .forUpdate()
    .execute()
}

/**
 * The same shipments' ids and row versions only, locked until commit: enough to tell whether any
 * of them changed, or one joined or left, since `autobatchShipments` read them.
 */
export function autobatchVersions(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  planId: string,
  day: string,
) {
  return autobatchScope(trx, schema, businessId, planId, day)
    .select('id')
    .select(sql<string>`xmin::text`.as('version'))
    .orderBy('code')
    .forUpdate()
    .execute()
}

/** When a stop is planned to begin and to be left. */
export interface StopTimes {
  arrival: Date | null
  departure: Date | null
}

/**
 * Puts the shipments on the plan as its stops 1, 2, ... in the order given (Pending ones become
 * Assigned), with their planned times (none given: cleared, since the order changed), in one UPDATE.
 */
export async function setStops(
  trx: Transaction<Tables>,
  schema: string,
  planId: string,
  shipmentIds: readonly string[],
  times: readonly (StopTimes | null)[] = [],
) {
  const values = sql.join(
    shipmentIds.map(
      (id, i) =>
        sql`(${id}::uuid, ${i + 1}::int, ${times[i]?.arrival ?? null}::timestamptz, ${times[i]?.departure ?? null}::timestamptz)`,
    ),
  )
  await sql`
        UPDATE ${sql.table(`${schema}.shipments`)} AS s
        SET delivery_plan_id = ${planId}, stop_sequence = v.seq,
            planned_arrival = v.arrival, planned_departure = v.departure,
            status = CASE WHEN s.status = 'Pending' THEN 'Assigned' ELSE s.status END,
            assigned_at = coalesce(s.assigned_at, now()), date_modified = now()
        FROM (VALUES ${values}) AS v (id, seq, arrival, departure)
        WHERE s.id = v.id`.execute(trx)
}

/** Stores the route's distance (null: no depot to start from) and when the plan was autobatched. */
export async function markAutobatched(
  trx: Transaction<Tables>,
  schema: string,
  planId: string,
  distanceKm: string | null,
) {
  await trx
    .withSchema(schema)
    .updateTable('delivery_plans')
    .set({
      distance_km: distanceKm,
      autobatched_at: sql<Date>`now()`,
      date_modified: sql<Date>`now()`,
    })
    .where('id', '=', planId)
    .execute()
}

/** Stores the route's distance after the plan's stops were re-ordered (re-optimising: not an autobatch). */
export async function storeDistance(
  trx: Transaction<Tables>,
  schema: string,
  planId: string,
  distanceKm: string,
) {
  await trx
    .withSchema(schema)
    .updateTable('delivery_plans')
    .set({ distance_km: distanceKm, date_modified: sql<Date>`now()` })
    .where('id', '=', planId)
    .execute()
}
