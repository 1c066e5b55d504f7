import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'

/** Kinds of trace the system writes; users may add their own types through the traces endpoint. */
export type SystemTraceType =
  | 'CustomerCreated'
  | 'CustomerUpdated'
  | 'CustomerDeleted'
  | 'ContactAdded'
  | 'ContactUpdated'
  | 'ContactRemoved'
  | 'AttachmentAdded'
  | 'AttachmentRemoved'
  | 'MetadataChanged'
  | 'OrderCreated'
  | 'OrderUpdated'
  | 'OrderConfirmed'
  | 'OrderFulfilled'
  | 'OrderCancelled'

export interface TraceInput {
  businessId: string
  customerId: string
  orderId?: string | null
  type: string
  note?: string | null
  source: 'User' | 'System'
  userId: string | null
  occurredAt?: Date
}

const rowOf = (id: string, trace: TraceInput) => ({
  id,
  business_id: trace.businessId,
  customer_id: trace.customerId,
  order_id: trace.orderId ?? null,
  type: trace.type,
  note: trace.note ?? null,
  source: trace.source,
  created_by_user_id: trace.userId,
  occurred_at: trace.occurredAt ?? new Date(),
})

/** Appends an entry to a customer's activity timeline (in the caller's transaction, if any). */
export async function addTrace(db: Executor, schemaName: string, trace: TraceInput): Promise<string> {
  const id = newId()
  await db.withSchema(schemaName).insertInto('activity_traces').values(rowOf(id, trace)).execute()
  return id
}

/** Appends several entries (one change touching many customers' orders) in one statement. */
export async function addTraces(db: Executor, schemaName: string, traces: readonly TraceInput[]) {
  if (traces.length === 0) return
  await db
    .withSchema(schemaName)
    .insertInto('activity_traces')
    .values(traces.map((trace) => rowOf(newId(), trace)))
    .execute()
}
