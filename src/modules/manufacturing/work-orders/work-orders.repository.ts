import { type Insertable, sql, type Transaction } from 'kysely'
import { appliedAt } from '../../../db/applied-at.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { WorkOrdersTable } from './work-orders.tables.js'

export function scopedWorkOrders(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('work_orders as w')
    .innerJoin('boms as b', 'b.id', 'w.bom_id')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .where('w.business_id', '=', businessId)
    .select([
      'w.id',
      'w.business_id',
      'w.code',
      'w.bom_id',
      'b.code as bom_code',
      'b.revision as bom_revision',
      'w.product_id',
      'p.sku as product_sku',
      'p.name as product_name',
      'w.quantity',
      'w.status',
      'w.planned_start',
      'w.planned_end',
      'w.notes',
      'w.standard_unit_cost',
      'w.standard_total_cost',
      'w.actual_unit_cost',
      'w.actual_total_cost',
      'w.quantity_produced',
      'w.effective_date',
      'w.released_at',
      'w.started_at',
      'w.completed_at',
      'w.cancelled_at',
      'w.date_created',
      'w.date_modified',
    ])
}

/** The work orders made from one BOM (already known to be the business's). */
export function workOrdersOfBom(db: Executor, schema: string, businessId: string, bomId: string) {
  return scopedWorkOrders(db, schema, businessId).where('w.bom_id', '=', bomId)
}

export type WorkOrderRow = NonNullable<Awaited<ReturnType<typeof findWorkOrder>>>

export async function findWorkOrder(db: Executor, schema: string, businessId: string, id: string) {
  return scopedWorkOrders(db, schema, businessId).where('w.id', '=', id).executeTakeFirst()
}

export async function lockWorkOrder(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  id: string,
) {
  return trx
    .withSchema(schema)
    .selectFrom('work_orders')
    .selectAll()
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
}

/** The fields of a work order a client sets. */
export interface WorkOrderValues {
  quantity: number
  planned_start: Date | null
  planned_end: Date | null
  notes: string | null
}

export async function insertWorkOrder(
  trx: Transaction<Tables>,
  schema: string,
  values: Insertable<WorkOrdersTable>,
) {
  await trx.withSchema(schema).insertInto('work_orders').values(values).execute()
}

export async function updateWorkOrder(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  values: WorkOrderValues & { bom_id: string; product_id: string },
) {
  await trx
    .withSchema(schema)
    .updateTable('work_orders')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .execute()
}

const STAMPS = { Released: 'released_at', InProgress: 'started_at', Cancelled: 'cancelled_at' } as const

/** Moves the (locked) work order to `to`, stamped when applied; a release also stores its standard cost. */
export async function moveWorkOrder(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  to: keyof typeof STAMPS,
  standard: { standard_unit_cost?: number; standard_total_cost?: number },
) {
  await trx
    .withSchema(schema)
    .updateTable('work_orders')
    .set({ ...standard, status: to, [STAMPS[to]]: appliedAt(), date_modified: appliedAt() })
    .where('id', '=', id)
    .execute()
}

/** Completes the (locked) work order with what was produced and what it cost. */
export async function completeWorkOrder(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  done: {
    effective_date: Date
    quantity_produced: number
    actual_total_cost: number
    actual_unit_cost: number
  },
) {
  await trx
    .withSchema(schema)
    .updateTable('work_orders')
    .set({ status: 'Completed', completed_at: appliedAt(), date_modified: appliedAt(), ...done })
    .where('id', '=', id)
    .execute()
}

/** Whether the business has this BOM (in any status). */
export async function bomExists(db: Executor, schema: string, businessId: string, bomId: string) {
  const bom = await db
    .withSchema(schema)
    .selectFrom('boms')
    .select('id')
    .where('id', '=', bomId)
    .where('business_id', '=', businessId)
    .executeTakeFirst()
  return bom !== undefined
}

/** The BOM a work order may be made from: Active, of the business; share-locked so it cannot be deleted meanwhile. */
export async function activeBom(trx: Transaction<Tables>, schema: string, businessId: string, bomId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('boms')
    .select(['id', 'product_id', 'status'])
    .where('id', '=', bomId)
    .where('business_id', '=', businessId)
    .where('status', '=', 'Active')
    .forShare()
    .executeTakeFirst()
}

/** What one completion consumes per product: BOM quantity with scrap, scaled to the quantity produced. */
export async function componentNeeds(
  trx: Transaction<Tables>,
  schema: string,
  bomId: string,
  produced: number,
) {
  return trx
    .withSchema(schema)
    .selectFrom('bom_lines as l')
    .innerJoin('boms as b', 'b.id', 'l.bom_id')
    .where('l.bom_id', '=', bomId)
    .groupBy('l.product_id')
    .select([
      'l.product_id',
      sql<string>`round(sum(l.quantity * (1 + l.scrap_percent / 100)), 4)`.as('per_batch'),
      sql<string>`max(b.output_quantity)`.as('output_quantity'),
    ])
    .execute()
    .then((rows) =>
      rows.map((r) => ({
        productId: r.product_id,
        required: Math.round((Number(r.per_batch) * produced * 10_000) / Number(r.output_quantity)) / 10_000,
      })),
    )
}
