import { sql, type Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { SystemTraceType } from '../activity/index.js'

/**
 * A customer's timeline. The recorders' names are read apart (`userNames`): the global users live
 * on the main cluster, the organisation's schema perhaps on another.
 */
export function scopedTraces(db: Executor, schemaName: string, businessId: string, customerId: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('activity_traces as t')
    .where('t.business_id', '=', businessId)
    .where('t.customer_id', '=', customerId)
    .select([
      't.id',
      't.customer_id',
      't.order_id',
      't.type',
      't.note',
      't.source',
      't.created_by_user_id',
      't.occurred_at',
      't.date_created',
    ])
}

/** Each user's display name (full name, else email), by id. */
export async function userNames(db: Executor, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('global.users')
    .where('id', 'in', [...new Set(userIds)])
    .select(['id', sql<string>`coalesce(nullif(trim(first_name || ' ' || last_name), ''), email)`.as('name')])
    .execute()
  return new Map(rows.map((r) => [r.id, r.name]))
}

export type TraceRow = Awaited<ReturnType<ReturnType<typeof scopedTraces>['executeTakeFirstOrThrow']>>

/**
 * The same System entry for many customers in one INSERT (bulk delete of up to 500): the shared
 * `addTrace` writes one row per round trip.
 */
export async function addSystemTraces(
  trx: Transaction<Tables>,
  schemaName: string,
  trace: { businessId: string; userId: string; type: SystemTraceType; note: string | null },
  customerIds: readonly string[],
) {
  if (customerIds.length === 0) return
  await trx
    .withSchema(schemaName)
    .insertInto('activity_traces')
    .values(
      customerIds.map((customerId) => ({
        id: newId(),
        business_id: trace.businessId,
        customer_id: customerId,
        type: trace.type,
        note: trace.note,
        source: 'System',
        created_by_user_id: trace.userId,
        occurred_at: sql<Date>`now()`,
      })),
    )
    .execute()
}
