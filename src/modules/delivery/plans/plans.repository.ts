import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import { SHIPMENT_COLUMNS, type ShipmentRow } from '../shipments/index.js'

export const PLAN_COLUMNS = [
  'p.id',
  'p.business_id',
  'p.code',
  'p.name',
  'p.status',
  'p.vehicle_id',
  'p.driver_name',
  'p.carrier_id',
  'p.delivery_zone_ids',
  'p.depot',
  'p.distance_km',
  'p.notes',
  'p.scheduled_at',
  'p.dispatched_at',
  'p.completed_at',
  'p.cancelled_at',
  'p.autobatched_at',
  'p.date_created',
  'p.date_modified',
] as const

export function scopedPlans(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('delivery_plans as p')
    .where('p.business_id', '=', businessId)
    .select(PLAN_COLUMNS)
    .select(sql<string>`to_char(p.scheduled_date, 'YYYY-MM-DD')`.as('scheduled_date'))
}

/** The plans of a scheduled day range (inclusive) and status, for the plan list. */
export function filteredPlans(
  db: Executor,
  schema: string,
  businessId: string,
  filter: { from?: string | undefined; to?: string | undefined; status?: string | undefined },
) {
  let scoped = scopedPlans(db, schema, businessId)
  if (filter.from) scoped = scoped.where('p.scheduled_date', '>=', filter.from)
  if (filter.to) scoped = scoped.where('p.scheduled_date', '<=', filter.to)
  if (filter.status) scoped = scoped.where('p.status', '=', filter.status)
  return scoped
}

export type PlanRow = NonNullable<Awaited<ReturnType<typeof findPlan>>>

export function findPlan(db: Executor, schema: string, businessId: string, id: string) {
  return scopedPlans(db, schema, businessId).where('p.id', '=', id).executeTakeFirst()
}

/**
 * A plan with its shipments in stop order (then code), in one statement: the shipments come as
 * one JSON array of whole rows (`to_jsonb`), turned back into rows by `shipmentRowsFromJson`.
 */
export async function findPlanWithShipments(db: Executor, schema: string, businessId: string, id: string) {
  const row = await scopedPlans(db, schema, businessId)
    .select(
      sql<Record<string, unknown>[]>`coalesce((
        select jsonb_agg(to_jsonb(s) order by s.stop_sequence nulls last, s.code)
        from ${sql.table(`${schema}.shipments`)} as s where s.delivery_plan_id = p.id
      ), '[]'::jsonb)`.as('shipments'),
    )
    .where('p.id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  const { shipments, ...plan } = row
  return { plan, shipments: shipmentRowsFromJson(shipments) }
}

const SHIPMENT_STAMPS = [
  'assigned_at',
  'dispatched_at',
  'delivered_at',
  'failed_at',
  'returned_at',
  'cancelled_at',
  'scheduled_date',
  'planned_arrival',
  'planned_departure',
] as const

/** Rows as the driver would have typed them: timestamps as Date, numeric as its text. */
function shipmentRowsFromJson(rows: readonly Record<string, unknown>[]): ShipmentRow[] {
  const stamp = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)))
  const decimal = (value: unknown) => (value === null || value === undefined ? null : String(value))
  return rows.map((json) => {
    const row: Record<string, unknown> = {}
    for (const column of SHIPMENT_COLUMNS) {
      const name = column.slice(2)
      row[name] = json[name] ?? null
    }
    for (const name of SHIPMENT_STAMPS) row[name] = stamp(json[name])
    row.date_created = new Date(String(json.date_created))
    row.date_modified = new Date(String(json.date_modified))
    row.weight = decimal(json.weight)
    row.volume = decimal(json.volume)
    row.service_minutes = decimal(json.service_minutes)
    return row as unknown as ShipmentRow
  })
}

export function findPlanByCode(db: Executor, schema: string, businessId: string, code: string) {
  return scopedPlans(db, schema, businessId).where('p.code', '=', code).executeTakeFirst()
}

/** Locks the plan row until commit: changes to a plan and its shipments run one at a time. */
export function lockPlan(trx: Transaction<Tables>, schema: string, businessId: string, id: string) {
  return trx
    .withSchema(schema)
    .selectFrom('delivery_plans')
    .select(['id', 'code', 'status', 'vehicle_id', 'delivery_zone_ids', 'depot'])
    .select(sql<string>`to_char(scheduled_date, 'YYYY-MM-DD')`.as('scheduled_date'))
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
}
export type LockedPlan = NonNullable<Awaited<ReturnType<typeof lockPlan>>>

export interface PlanValues {
  name: string | null
  scheduled_date: string
  vehicle_id: string | null
  driver_name: string | null
  carrier_id: number | null
  delivery_zone_ids: string[]
  depot: string | null
  notes: string | null
}

export async function insertPlan(
  trx: Transaction<Tables>,
  schema: string,
  values: PlanValues & { id: string; business_id: string; code: string },
) {
  await trx.withSchema(schema).insertInto('delivery_plans').values(values).execute()
}

export async function updatePlan(trx: Transaction<Tables>, schema: string, id: string, values: PlanValues) {
  await trx
    .withSchema(schema)
    .updateTable('delivery_plans')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .execute()
}

const STAMPS = {
  Scheduled: 'scheduled_at',
  Dispatched: 'dispatched_at',
  Completed: 'completed_at',
  Cancelled: 'cancelled_at',
} as const

export async function setPlanStatus(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  to: keyof typeof STAMPS,
  at: Date,
) {
  await trx
    .withSchema(schema)
    .updateTable('delivery_plans')
    .set({ status: to, [STAMPS[to]]: at, date_modified: at })
    .where('id', '=', id)
    .execute()
}

export async function deletePlan(trx: Transaction<Tables>, schema: string, id: string) {
  await trx.withSchema(schema).deleteFrom('delivery_plans').where('id', '=', id).execute()
}

export async function planStatusCounts(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('delivery_plans')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('business_id', '=', businessId)
    .groupBy('status')
    .execute()
}

/** The plans of the business's today (its own day, in its time zone), with their shipment counts. */
export function todaysPlans(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('delivery_plans as p')
    .select(['p.id', 'p.code', 'p.name', 'p.status'])
    .select((eb) =>
      eb
        .selectFrom('shipments as s')
        .whereRef('s.delivery_plan_id', '=', 'p.id')
        .select(sql<number>`count(*)::int`.as('n'))
        .as('shipment_count'),
    )
    .where('p.business_id', '=', businessId)
    .where(
      'p.scheduled_date',
      '=',
      sql<string>`(now() at time zone (select timezone from ${sql.table(`${schema}.businesses`)} where id = ${businessId}))::date`,
    )
    .orderBy('p.code')
    .execute()
}

/** The calendar day of the instant `dateTime` in the business's time zone (yyyy-mm-dd); undefined without the business. */
export async function businessDayOf(db: Executor, schema: string, businessId: string, dateTime: string) {
  const { rows } = await sql<{ day: string }>`
    SELECT to_char(${dateTime}::timestamptz AT TIME ZONE b.timezone, 'YYYY-MM-DD') AS day
    FROM ${sql.table(`${schema}.businesses`)} AS b WHERE b.id = ${businessId}`.execute(db)
  return rows[0]?.day
}
