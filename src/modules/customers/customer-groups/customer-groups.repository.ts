import { type ExpressionBuilder, sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

/** The tenant tables as seen from a query on `customer_groups as g`. */
type GroupScope = ExpressionBuilder<Tables & { g: Tables['customer_groups'] }, 'g'>

/** Customers (not deleted) of the group; a correlated count, so a list page never multiplies rows. */
const customerCount = (eb: GroupScope) =>
  eb
    .selectFrom('customers as c')
    .whereRef('c.customer_group_id', '=', 'g.id')
    .where('c.deleted_at', 'is', null)
    .select((e) => e.fn.countAll<number>().as('n'))
    .as('customer_count')

const COLUMNS = [
  'g.id',
  'g.business_id',
  'g.name',
  'g.description',
  'g.date_created',
  'g.date_modified',
] as const

/** Live groups of the business with their customer counts: the base of every read. */
export function scopedGroups(db: Executor, schemaName: string, businessId: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('customer_groups as g')
    .where('g.business_id', '=', businessId)
    .where('g.deleted_at', 'is', null)
    .select(COLUMNS)
    .select(customerCount)
}

export type GroupRow = Awaited<ReturnType<ReturnType<typeof scopedGroups>['executeTakeFirstOrThrow']>>

export async function findGroup(db: Executor, schemaName: string, businessId: string, id: string) {
  return scopedGroups(db, schemaName, businessId).where('g.id', '=', id).executeTakeFirst()
}

export async function insertGroup(
  db: Executor,
  schemaName: string,
  row: { id: string; business_id: string; name: string; description: string | null },
) {
  return db
    .withSchema(schemaName)
    .insertInto('customer_groups')
    .values(row)
    .returning(['id', 'business_id', 'name', 'description', 'date_created', 'date_modified'])
    .executeTakeFirstOrThrow()
}

export async function updateGroup(
  db: Executor,
  schemaName: string,
  businessId: string,
  id: string,
  values: { name: string; description: string | null },
): Promise<GroupRow | undefined> {
  return db
    .withSchema(schemaName)
    .updateTable('customer_groups as g')
    .set({ ...values, date_modified: sql`now()` })
    .where('g.id', '=', id)
    .where('g.business_id', '=', businessId)
    .where('g.deleted_at', 'is', null)
    .returning(COLUMNS)
    .returning(customerCount)
    .executeTakeFirst()
}

/**
 * Locks a live group of the business until the transaction ends: `update` before deleting it,
 * `share` before pointing customers at it, so a customer never lands in a group being deleted.
 */
export async function lockGroup(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  id: string,
  mode: 'update' | 'share',
) {
  const query = trx
    .withSchema(schemaName)
    .selectFrom('customer_groups')
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
  return (mode === 'update' ? query.forUpdate() : query.forShare()).executeTakeFirst()
}

export async function countCustomers(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  groupId: string,
) {
  const row = await trx
    .withSchema(schemaName)
    .selectFrom('customers')
    .where('business_id', '=', businessId)
    .where('customer_group_id', '=', groupId)
    .where('deleted_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Moves the group's live customers to `targetId` (null: no group), leaving each a CustomerUpdated
 * trace. Both are set-based statements, so a group of thousands moves in two round trips.
 */
export async function moveCustomers(
  trx: Transaction<Tables>,
  schemaName: string,
  scope: { businessId: string; userId: string },
  from: { id: string; name: string },
  targetId: string | null,
) {
  const db = trx.withSchema(schemaName)
  const note = `Changed: customerGroupId (group "${from.name}" was deleted)`
  await db
    .insertInto('activity_traces')
    .columns([
      'id',
      'business_id',
      'customer_id',
      'type',
      'note',
      'source',
      'created_by_user_id',
      'occurred_at',
    ])
    .expression(
      db
        .selectFrom('customers')
        .select([
          sql<string>`gen_random_uuid()`.as('id'),
          'business_id',
          'id as customer_id',
          sql<string>`'CustomerUpdated'`.as('type'),
          sql<string>`${note}::text`.as('note'),
          sql<string>`'System'`.as('source'),
          sql<string>`${scope.userId}::uuid`.as('created_by_user_id'),
          sql<Date>`now()`.as('occurred_at'),
        ])
        .where('business_id', '=', scope.businessId)
        .where('customer_group_id', '=', from.id)
        .where('deleted_at', 'is', null),
    )
    .execute()
  await db
    .updateTable('customers')
    .set({ customer_group_id: targetId, date_modified: sql`now()` })
    .where('business_id', '=', scope.businessId)
    .where('customer_group_id', '=', from.id)
    .where('deleted_at', 'is', null)
    .execute()
}

export async function softDeleteGroup(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  id: string,
) {
  await trx
    .withSchema(schemaName)
    .updateTable('customer_groups')
    .set({ deleted_at: sql`now()`, date_modified: sql`now()` })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .execute()
}
