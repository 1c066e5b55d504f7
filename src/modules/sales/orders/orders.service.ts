import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress } from '../../../http/address.js'
import { checkBusinessDate } from '../../../http/business-dates.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { FieldMap } from '../../../http/odata/index.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { addTrace, lockCustomer } from '../../customers/index.js'
import { reserveOrder } from '../reservations/index.js'
import { customerNotAvailable, orderNotEditable, orderNotFound } from './orders.errors.js'
import { toOrder, withLines } from './orders.mapper.js'
import * as repository from './orders.repository.js'
import {
  type CreateOrderRequest,
  ORDER_STATUSES,
  type OrderResponse,
  type OrderStatus,
  type UpdateOrderRequest,
} from './orders.schemas.js'
import { checkLines, currencyCode } from './orders.validation.js'

const FIELDS = {
  code: { column: 'o.code', type: 'string' },
  status: { column: 'o.status', type: 'enum', enumValues: ORDER_STATUSES },
  customerId: { column: 'o.customer_id', type: 'uuid' },
  currency: { column: 'o.currency', type: 'string' },
  total: { column: 'o.total', type: 'number' },
  orderDate: { column: 'o.order_date', type: 'datetime' },
  dateCreated: { column: 'o.date_created', type: 'datetime' },
  dateModified: { column: 'o.date_modified', type: 'datetime' },
} as const satisfies FieldMap

const LIST: ListSpec = {
  fields: FIELDS,
  search: ['o.code', 'o.notes', 'c.name'],
  defaultOrder: [{ column: 'o.order_date', direction: 'desc' }],
  tiebreak: 'o.id',
}

const EDITABLE: readonly OrderStatus[] = ['Draft', 'Confirmed']

export async function listOrders(database: Database, auth: BusinessAuth, query: ListQuery) {
  const db = database.db
  const { rows, total, page } = await runList(
    repository.scopedOrders(db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  const lines = await repository.linesOf(
    db,
    auth.schemaName,
    rows.map((r) => r.id),
  )
  return paged('core', withLines(rows, lines), total, page)
}

export async function getOrder(
  database: Database,
  auth: BusinessAuth,
  orderId: string,
): Promise<OrderResponse> {
  const order = await loadOrder(database.db, auth, orderId)
  if (!order) throw orderNotFound()
  return order
}

/** The order as the API shows it; within a transaction, as that transaction sees it. */
export async function loadOrder(
  db: Executor,
  auth: BusinessAuth,
  orderId: string,
): Promise<OrderResponse | undefined> {
  const row = await repository.findOrder(db, auth.schemaName, auth.businessId, orderId)
  if (!row) return undefined
  return toOrder(row, await repository.linesOf(db, auth.schemaName, [row.id]))
}

/** Validates what the schema cannot and returns the values to store (without defaults). */
function checkRequest(request: CreateOrderRequest | UpdateOrderRequest) {
  const reasons: Reason[] = []
  const currency = request.currency === undefined ? undefined : currencyCode(request.currency)
  if (request.currency !== undefined && !currency) {
    reasons.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as USD or ZAR' })
  }
  const checked = checkLines(request.lines)
  reasons.push(...checked.reasons)
  checkBusinessDate(reasons, 'orderDate', request.orderDate)
  if (reasons.length > 0) throw validationFailed(reasons)
  const address = normaliseAddress(request.deliveryAddress)
  return {
    currency,
    lines: checked.lines.map((line) => ({ ...line, id: newId() })),
    deliveryAddress: address ? JSON.stringify(address) : null,
    notes: request.notes?.trim() || null,
  }
}

/** Creates a Draft order and its lines in one transaction; the total is summed from the lines in SQL. */
export async function createOrder(
  database: Database,
  auth: BusinessAuth,
  request: CreateOrderRequest,
  events: DomainEventPublisher,
): Promise<OrderResponse> {
  const checked = checkRequest(request)
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    // A customer that may receive orders (live, of this business), share-locked until commit so a
    // concurrent delete waits instead of landing between this check and the insert.
    const customer = await lockCustomer(trx, schema, businessId, request.customerId, 'share')
    if (!customer) throw customerNotAvailable()
    const id = newId()
    const code = await nextCode(trx, schema, businessId, 'order', 'ORD')
    await repository.insertOrder(trx, schema, {
      id,
      business_id: businessId,
      code,
      customer_id: customer.id,
      order_date: request.orderDate ?? new Date(),
      currency: checked.currency ?? (await repository.businessCurrency(trx, schema, businessId)),
      delivery_address: checked.deliveryAddress,
      notes: checked.notes,
    })
    await repository.replaceLines(trx, schema, id, checked.lines)
    await trace(trx, auth, customer.id, id, 'OrderCreated', `Order ${code} created`)
    const order = (await loadOrder(trx, auth, id))!
    await events.publish(trx, schema, {
      type: 'OrderCreated',
      businessId,
      userId: auth.userId,
      payload: {
        orderId: id,
        code,
        customerId: customer.id,
        status: order.status,
        currency: order.currency,
        total: order.total,
      },
    })
    return order
  })
}

/**
 * Replaces the editable fields and lines of a Draft or Confirmed order. The row is locked first,
 * so a status move running at the same time either happens before (and may make this a 409) or after.
 */
export async function updateOrder(
  database: Database,
  auth: BusinessAuth,
  orderId: string,
  request: UpdateOrderRequest,
  events: DomainEventPublisher,
): Promise<OrderResponse> {
  const checked = checkRequest(request)
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const current = await repository.lockOrder(trx, schema, businessId, orderId)
    if (!current) throw orderNotFound()
    const status = current.status as OrderStatus
    if (!EDITABLE.includes(status)) throw orderNotEditable(status)
    // The order's own customer stays valid even if since deleted; moving it needs a live one.
    const moved = request.customerId !== current.customer_id
    const customer = moved
      ? await lockCustomer(trx, schema, businessId, request.customerId, 'share')
      : undefined
    if (moved && !customer) throw customerNotAvailable()
    await repository.updateOrder(trx, schema, orderId, {
      customer_id: request.customerId,
      order_date: request.orderDate ?? current.order_date,
      currency: checked.currency ?? current.currency,
      delivery_address: checked.deliveryAddress,
      notes: checked.notes,
    })
    await repository.replaceLines(trx, schema, orderId, checked.lines)
    // A confirmed order holds stock for the lines it has now: re-reserved in this transaction.
    if (status === 'Confirmed')
      await reserveOrder(trx, auth, events, {
        id: orderId,
        code: current.code,
        customerId: request.customerId,
      })
    await trace(trx, auth, request.customerId, orderId, 'OrderUpdated', `Order ${current.code} updated`)
    if (moved) {
      const note = `Order ${current.code} moved to customer ${customer!.name}`
      await trace(trx, auth, current.customer_id, orderId, 'OrderUpdated', note)
    }
    return (await loadOrder(trx, auth, orderId))!
  })
}

/** A system entry on the customer's timeline, in the caller's transaction. */
export async function trace(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  customerId: string,
  orderId: string,
  type: 'OrderCreated' | 'OrderUpdated' | 'OrderConfirmed' | 'OrderFulfilled' | 'OrderCancelled',
  note: string,
) {
  await addTrace(trx, auth.schemaName, {
    businessId: auth.businessId,
    customerId,
    orderId,
    type,
    note,
    source: 'System',
    userId: auth.userId,
  })
}
