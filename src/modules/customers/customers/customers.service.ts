import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import { type ListQuery, pageOffset, pageRequest } from '../../../http/list-params.js'
import { hasListCursor, type ListSpec, runList } from '../../../http/list-query.js'
import { addTrace } from '../activity/index.js'
import { lockGroup } from '../customer-groups/index.js'
import { insertContacts } from './contacts.repository.js'
import { customerNotFound, customersNotFound, unknownCustomerGroup } from './customers.errors.js'
import { changedFields, customerValues } from './customers.input.js'
import { toCustomer } from './customers.read.js'
import * as repository from './customers.repository.js'
import {
  type BulkDeleteCustomersRequest,
  type CreateCustomerRequest,
  CUSTOMER_STATUSES,
  CUSTOMER_TYPES,
  type CustomerResponse,
  type UpdateCustomerRequest,
} from './customers.schemas.js'
import { addSystemTraces } from './traces.repository.js'

/** What reads need of the caller. */
export interface CustomerScope {
  schemaName: string
  businessId: string
}
/** What writes need: the user is recorded on the traces they leave. */
export interface CustomerAuth extends CustomerScope {
  userId: string
}

const LIST: ListSpec = {
  fields: {
    name: { column: 'c.name', type: 'string' },
    email: { column: 'c.email', type: 'string' },
    phoneNumber: { column: 'c.phone_number', type: 'string' },
    code: { column: 'c.code', type: 'string' },
    status: { column: 'c.status', type: 'enum', enumValues: CUSTOMER_STATUSES },
    type: { column: 'c.type', type: 'enum', enumValues: CUSTOMER_TYPES },
    customerGroupId: { column: 'c.customer_group_id', type: 'uuid' },
    dateCreated: { column: 'c.date_created', type: 'datetime' },
    dateModified: { column: 'c.date_modified', type: 'datetime' },
    metadata: { column: 'c.metadata', type: 'map' },
  },
  // $search is applied by customerSearch (it also matches contact names), not by runList.
  search: [],
  defaultOrder: [{ column: 'c.date_created', direction: 'desc' }],
  tiebreak: 'c.id',
}

/** The customer (live, of the business) as the API returns it; 404 customer_not_found otherwise. */
export async function loadCustomerResponse(
  db: Executor,
  auth: CustomerScope,
  customerId: string,
): Promise<CustomerResponse> {
  // One statement: the row with its group, contacts and attachments (customers.repository.ts).
  const row = await repository.findCustomer(db, auth.schemaName, auth.businessId, customerId)
  if (!row) throw customerNotFound()
  return toCustomer(row)
}

export async function assertCustomerExists(
  db: Executor,
  auth: CustomerScope,
  customerId: string,
): Promise<void> {
  if (!(await repository.customerExists(db, auth.schemaName, auth.businessId, customerId)))
    throw customerNotFound()
}

/** Locks the live customer for the rest of the transaction, or throws 404. */
export async function lockLiveCustomer(
  trx: Transaction<Tables>,
  auth: CustomerScope,
  customerId: string,
  mode: 'update' | 'share' = 'update',
) {
  const customer = await repository.lockCustomer(trx, auth.schemaName, auth.businessId, customerId, mode)
  if (!customer) throw customerNotFound()
  return customer
}

export async function listCustomers(db: Executor, auth: CustomerScope, query: ListQuery) {
  const plain = !query.$filter?.trim() && !query.$search?.trim() && !query.$orderby?.trim()
  // An export's walk goes through runList, which reads each next page by keyset.
  if (plain && !hasListCursor(query)) {
    // The common shape, compiled once per schema; a page past the end falls through for its total.
    const page = pageRequest(query)
    const rows = await repository.customersInDefaultOrder(db, auth.schemaName, {
      businessId: auth.businessId,
      limit: page.pageSize,
      offset: pageOffset(page),
    })
    if (rows.length > 0 || page.page === 1) {
      const total = Number(rows[0]?.__total ?? 0)
      return paged('core', rows.map(toCustomer), total, page)
    }
  }
  let scoped = repository.scopedCustomers(db, auth.schemaName, auth.businessId)
  if (query.$search?.trim()) scoped = repository.matchingSearch(scoped, query.$search)
  const { rows, total, page } = await runList(
    scoped,
    { ...query, $search: undefined },
    LIST,
    query.$search?.trim() ? undefined : repository.liveCustomerCount(auth.schemaName, auth.businessId),
  )
  return paged('core', rows.map(toCustomer), total, page)
}

/** The group must be a live group of the business; locked so it cannot be deleted under us. */
async function checkGroup(trx: Transaction<Tables>, auth: CustomerScope, groupId: string | null) {
  if (groupId && !(await lockGroup(trx, auth.schemaName, auth.businessId, groupId, 'share'))) {
    throw unknownCustomerGroup()
  }
}

export async function createCustomer(db: Executor, auth: CustomerAuth, request: CreateCustomerRequest) {
  const { values, metadata, contacts } = customerValues(request)
  return db.transaction().execute(async (trx) => {
    await checkGroup(trx, auth, values.customer_group_id)
    const id = newId()
    await repository.insertCustomer(trx, auth.schemaName, {
      ...values,
      id,
      business_id: auth.businessId,
      code: await nextCode(trx, auth.schemaName, auth.businessId, 'customer', 'CUS'),
      metadata: JSON.stringify(metadata ?? {}),
    })
    await insertContacts(trx, auth, id, contacts)
    await addTrace(trx, auth.schemaName, {
      businessId: auth.businessId,
      customerId: id,
      type: 'CustomerCreated',
      source: 'System',
      userId: auth.userId,
    })
    return loadCustomerResponse(trx, auth, id)
  })
}

/**
 * Replaces the customer's editable fields (contacts have their own endpoints; metadata only when
 * sent). A PUT that changes nothing writes nothing and leaves no trace.
 */
export async function updateCustomer(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  request: UpdateCustomerRequest,
) {
  const { values, metadata } = customerValues(request)
  return db.transaction().execute(async (trx) => {
    const before = await lockLiveCustomer(trx, auth, customerId)
    if (values.customer_group_id !== before.customer_group_id)
      await checkGroup(trx, auth, values.customer_group_id)
    const changed = changedFields(before, values, metadata)
    if (changed.length > 0) {
      await repository.updateCustomer(trx, auth.schemaName, auth.businessId, customerId, {
        ...values,
        ...(metadata ? { metadata: JSON.stringify(metadata) } : {}),
      })
      await addTrace(trx, auth.schemaName, {
        businessId: auth.businessId,
        customerId,
        type: 'CustomerUpdated',
        note: `Changed: ${changed.join(', ')}`,
        source: 'System',
        userId: auth.userId,
      })
    }
    return loadCustomerResponse(trx, auth, customerId)
  })
}

/** Soft delete: the row, its orders and its traces stay for history; the API no longer shows it. */
export async function deleteCustomer(db: Executor, auth: CustomerAuth, customerId: string): Promise<boolean> {
  await db.transaction().execute(async (trx) => {
    const deleted = await repository.softDeleteCustomers(trx, auth.schemaName, auth.businessId, [customerId])
    if (deleted.length === 0) throw customerNotFound()
    await addTrace(trx, auth.schemaName, {
      businessId: auth.businessId,
      customerId,
      type: 'CustomerDeleted',
      source: 'System',
      userId: auth.userId,
    })
  })
  return true
}

/** All or nothing: one unknown, foreign or already deleted id rolls the whole request back with a 404 naming it. */
export async function bulkDeleteCustomers(
  db: Executor,
  auth: CustomerAuth,
  request: BulkDeleteCustomersRequest,
): Promise<boolean> {
  const ids = request.customerIds.map((id) => id.toLowerCase())
  // uniqueItems compares text; the same uuid in two letter cases is still a duplicate.
  if (new Set(ids).size !== ids.length)
    throw invalidField('customerIds', 'must not contain the same id twice')
  await db.transaction().execute(async (trx) => {
    const deleted = new Set(await repository.softDeleteCustomers(trx, auth.schemaName, auth.businessId, ids))
    const missing = ids.filter((id) => !deleted.has(id))
    if (missing.length > 0) {
      throw customersNotFound(missing)
    }
    await addSystemTraces(
      trx,
      auth.schemaName,
      { businessId: auth.businessId, userId: auth.userId, type: 'CustomerDeleted', note: 'Bulk delete' },
      ids,
    )
  })
  return true
}
