import { sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { ShipmentStatus } from './shipments.schemas.js'

export const SHIPMENT_COLUMNS = [
  's.id',
  's.business_id',
  's.code',
  's.order_id',
  's.customer_id',
  's.status',
  's.pickup_address',
  's.delivery_address',
  's.weight',
  's.volume',
  's.dimension_preset_id',
  's.scheduled_date',
  's.delivery_plan_id',
  's.stop_sequence',
  's.notes',
  's.fail_reason',
  's.proof',
  's.assigned_at',
  's.dispatched_at',
  's.delivered_at',
  's.failed_at',
  's.returned_at',
  's.cancelled_at',
  's.date_created',
  's.date_modified',
  's.delivery_windows',
  's.service_minutes',
  's.planned_arrival',
  's.planned_departure',
] as const

export function scopedShipments(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('shipments as s')
    .where('s.business_id', '=', businessId)
    .select(SHIPMENT_COLUMNS)
}

/** Shipments on no plan that can still go on one (Pending or Assigned). */
export function scopedUnassignedShipments(db: Executor, schema: string, businessId: string) {
  return scopedShipments(db, schema, businessId)
    .where('s.delivery_plan_id', 'is', null)
    .where('s.status', 'in', ['Pending', 'Assigned'])
}

export type ShipmentRow = NonNullable<Awaited<ReturnType<typeof findShipment>>>

export function findShipment(db: Executor, schema: string, businessId: string, id: string) {
  return scopedShipments(db, schema, businessId).where('s.id', '=', id).executeTakeFirst()
}

export interface ShipmentValues {
  order_id: string | null
  customer_id: string | null
  pickup_address: string | null
  delivery_address: string | null
  weight: number | null
  volume: number | null
  weight_derived: boolean
  volume_derived: boolean
  dimension_preset_id: string | null
  scheduled_date: Date | null
  notes: string | null
  delivery_windows: string
  service_minutes: number | null
}

export async function insertShipment(
  trx: Transaction<Tables>,
  schema: string,
  values: ShipmentValues & { id: string; business_id: string; code: string },
) {
  await trx.withSchema(schema).insertInto('shipments').values(values).execute()
}

/** Replaces the editable fields of a shipment that is still Pending; undefined when it was not. */
export function updatePending(
  db: Executor,
  schema: string,
  businessId: string,
  id: string,
  values: ShipmentValues,
) {
  return db
    .withSchema(schema)
    .updateTable('shipments')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('status', '=', 'Pending')
    .returning('id')
    .executeTakeFirst()
}

export function deletePending(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .deleteFrom('shipments')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('status', '=', 'Pending')
    .where('delivery_plan_id', 'is', null)
    .returning('id')
    .executeTakeFirst()
}

export async function statusOf(db: Executor, schema: string, businessId: string, id: string, lock = false) {
  const row = await db
    .withSchema(schema)
    .selectFrom('shipments')
    .select('status')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
  return row?.status as ShipmentStatus | undefined
}

export const STAMPS = {
  Assigned: 'assigned_at',
  InTransit: 'dispatched_at',
  Delivered: 'delivered_at',
  Failed: 'failed_at',
  Returned: 'returned_at',
  Cancelled: 'cancelled_at',
} as const

/** One conditional UPDATE: only a shipment still in one of `from` moves, so parallel moves cannot both win. */
export function moveStatus(
  db: Executor,
  schema: string,
  businessId: string,
  id: string,
  from: readonly ShipmentStatus[],
  to: keyof typeof STAMPS,
  extra: { fail_reason?: string; proof?: string } = {},
) {
  return db
    .withSchema(schema)
    .updateTable('shipments')
    .set({ status: to, [STAMPS[to]]: appliedAt(), date_modified: appliedAt(), ...extra })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('status', 'in', from)
    .returning(['id', 'code', 'delivery_plan_id', 'customer_id'])
    .executeTakeFirst()
}

export async function orderOf(db: Executor, schema: string, businessId: string, orderId: string) {
  return db
    .withSchema(schema)
    .selectFrom('orders')
    .select(['id', 'customer_id', 'delivery_address'])
    .where('id', '=', orderId)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
}

export async function liveCustomerExists(
  db: Executor,
  schema: string,
  businessId: string,
  customerId: string,
) {
  const row = await db
    .withSchema(schema)
    .selectFrom('customers')
    .select('id')
    .where('id', '=', customerId)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return row !== undefined
}

/** A live customer's shipping address (the default delivery address of its shipments). */
export function liveCustomerAddress(db: Executor, schema: string, businessId: string, customerId: string) {
  return db
    .withSchema(schema)
    .selectFrom('customers')
    .select(['id', 'shipping_address'])
    .where('id', '=', customerId)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function fileExists(db: Executor, schema: string, businessId: string, fileId: string) {
  const row = await db
    .withSchema(schema)
    .selectFrom('files')
    .select('id')
    .where('id', '=', fileId)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
  return row !== undefined
}
