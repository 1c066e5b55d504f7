import type { Executor } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import { businessDateProblem } from '../../../http/business-dates.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import { addTrace } from '../activity/index.js'
import {
  assertCustomerExists,
  type CustomerAuth,
  type CustomerScope,
  loadCustomerResponse,
  lockLiveCustomer,
} from './customers.service.js'
import { scopedTraces, type TraceRow, userNames } from './traces.repository.js'
import {
  type ActivityTrace,
  type AddActivityTraceRequest,
  MAX_FUTURE_MS,
  TRACE_SOURCES,
} from './traces.schemas.js'

const LIST: ListSpec = {
  fields: {
    type: { column: 't.type', type: 'string' },
    source: { column: 't.source', type: 'enum', enumValues: TRACE_SOURCES },
    orderId: { column: 't.order_id', type: 'uuid' },
    occurredAt: { column: 't.occurred_at', type: 'datetime' },
    dateCreated: { column: 't.date_created', type: 'datetime' },
  },
  search: ['t.type', 't.note'],
  defaultOrder: [
    { column: 't.occurred_at', direction: 'desc' },
    { column: 't.date_created', direction: 'desc' },
  ],
  tiebreak: 't.id',
}

function toTrace(row: TraceRow, names: ReadonlyMap<string, string>): ActivityTrace {
  return {
    id: row.id,
    customerId: row.customer_id,
    orderId: row.order_id,
    type: row.type,
    note: row.note,
    source: row.source as ActivityTrace['source'],
    createdBy: row.created_by_user_id
      ? { id: row.created_by_user_id, displayName: names.get(row.created_by_user_id) ?? '' }
      : null,
    occurredAt: row.occurred_at.toISOString(),
    dateCreated: row.date_created.toISOString(),
  }
}

/** The customer's timeline, newest first; a deleted customer's history is kept but no longer served. */
export async function listTraces(db: Executor, auth: CustomerScope, customerId: string, query: ListQuery) {
  await assertCustomerExists(db, auth, customerId)
  const { rows, total, page } = await runList(
    scopedTraces(db, auth.schemaName, auth.businessId, customerId),
    query,
    LIST,
  )
  const names = await userNames(
    db,
    rows.flatMap((r) => (r.created_by_user_id ? [r.created_by_user_id] : [])),
  )
  return paged(
    'core',
    rows.map((row) => toTrace(row, names)),
    total,
    page,
  )
}

/** A User entry (a call, a visit...); back-dating is allowed, more than a day ahead is not. */
export async function addUserTrace(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  request: AddActivityTraceRequest,
) {
  const type = request.type.trim()
  if (!type) throw invalidField('type', 'must not be blank')
  const occurredAt = request.occurredAt ? new Date(request.occurredAt) : new Date()
  if (occurredAt.getTime() > Date.now() + MAX_FUTURE_MS) {
    throw invalidField('occurredAt', 'must not be more than one day in the future')
  }
  const dateProblem = businessDateProblem(occurredAt)
  if (dateProblem) throw invalidField('occurredAt', dateProblem)
  return db.transaction().execute(async (trx) => {
    await lockLiveCustomer(trx, auth, customerId, 'share')
    await addTrace(trx, auth.schemaName, {
      businessId: auth.businessId,
      customerId,
      type,
      note: request.note?.trim() || null,
      source: 'User',
      userId: auth.userId,
      occurredAt,
    })
    return loadCustomerResponse(trx, auth, customerId)
  })
}
