import { sql, type Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { SystemTraceType } from '../activity/index.js'

/** A customer's timeline with the recorder's display name (global users live outside the tenant schema). */
export function scopedTraces(db: Executor, schemaName: string, businessId: string, customerId: string) {
  return db
    .withSchema(schemaName)
    .selectFrom('activity_traces as t')
    .leftJoin('global.users as u', 'u.id', 't.created_by_user_id')
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
      sql<string | null>`coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email)`.as(
        'created_by_name',
      ),
    ])
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
