import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { orderNotFound, returnNotFound, shipmentNotDelivered, shipmentNotFound } from './returns.errors.js'
import { round, toReturn } from './returns.mapper.js'
import * as repository from './returns.repository.js'
import { allocate, lineReasons } from './returns.rules.js'
import { type CreateReturnRequest, RETURN_STATUSES, type ReturnResponse } from './returns.schemas.js'

const LIST: ListSpec = {
  fields: {
    number: { column: 'r.number', type: 'string' },
    status: { column: 'r.status', type: 'enum', enumValues: RETURN_STATUSES },
    orderId: { column: 'r.order_id', type: 'uuid' },
    shipmentId: { column: 'r.shipment_id', type: 'uuid' },
    customerId: { column: 'r.customer_id', type: 'uuid' },
    value: { column: 'r.value', type: 'number' },
    receivedAt: { column: 'r.received_at', type: 'datetime' },
    dateCreated: { column: 'r.date_created', type: 'datetime' },
    dateModified: { column: 'r.date_modified', type: 'datetime' },
  },
  search: ['r.number', 'r.reason'],
  defaultOrder: [{ column: 'r.date_created', direction: 'desc' }],
  tiebreak: 'r.id',
}

export async function loadReturn(db: Executor, auth: BusinessAuth, id: string): Promise<ReturnResponse> {
  const row = await repository.findReturn(db, auth.schemaName, auth.businessId, id)
  if (!row) throw returnNotFound()
  return toReturn(row)
}

export const getReturn = (database: Database, auth: BusinessAuth, id: string) =>
  loadReturn(database.db, auth, id)

/** The business's returns. */
export async function listReturns(database: Database, auth: BusinessAuth, query: ListQuery) {
  const scoped = repository.scopedReturns(database.db, auth.schemaName, auth.businessId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toReturn), total, page)
}

/** The returns credited (or to be credited) on one order of the business. */
export async function listOrderReturns(
  database: Database,
  auth: BusinessAuth,
  orderId: string,
  query: ListQuery,
) {
  if (!(await repository.findOrder(database.db, auth.schemaName, auth.businessId, orderId)))
    throw orderNotFound()
  const scoped = repository
    .scopedReturns(database.db, auth.schemaName, auth.businessId)
    .where('r.order_id', '=', orderId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toReturn), total, page)
}

/** Where the goods come from: a Delivered shipment (404, 409 otherwise) or an order (404). */
interface Source {
  where: repository.ReturnSource
  shipmentId: string | null
  orderId: string | null
  customerId: string | null
  /** where the goods came from, for a reason naming a product that did not */
  from: string
}

async function sourceOf(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  request: CreateReturnRequest,
): Promise<Source> {
  const { schemaName: schema, businessId } = auth
  if (request.shipmentId) {
    const shipment = await repository.findShipment(trx, schema, businessId, request.shipmentId)
    if (!shipment) throw shipmentNotFound()
    if (shipment.status !== 'Delivered') throw shipmentNotDelivered(shipment.status)
    return {
      where: { shipmentId: shipment.id },
      shipmentId: shipment.id,
      orderId: shipment.order_id,
      customerId: shipment.customer_id,
      from: `on shipment ${shipment.code}`,
    }
  }
  const order = await repository.findOrder(trx, schema, businessId, request.orderId!)
  if (!order) throw orderNotFound()
  return {
    where: { orderId: order.id },
    shipmentId: null,
    orderId: order.id,
    customerId: order.customer_id,
    from: `on a Delivered shipment of order ${order.code}`,
  }
}

function requestReasons(request: CreateReturnRequest): Reason[] {
  const reasons = lineReasons(request.lines)
  if (request.shipmentId && request.orderId)
    reasons.push({ field: 'shipmentId', message: 'give shipmentId or orderId, not both' })
  if (!request.shipmentId && !request.orderId)
    reasons.push({ field: 'shipmentId', message: 'shipmentId or orderId is required' })
  if (!request.reason.trim()) reasons.push({ field: 'reason', message: 'must not be blank' })
  return reasons
}

/**
 * Requests a return of delivered goods, in one transaction: the delivered shipment lines of the
 * products are locked first, so two requests for the same goods never return more than was
 * delivered. Publishes ReturnRequested.
 */
export async function createReturn(deps: AppDeps, auth: BusinessAuth, request: CreateReturnRequest) {
  const reasons = requestReasons(request)
  if (reasons.length > 0) throw validationFailed(reasons)
  const { schemaName: schema, businessId } = auth
  return deps.database.db.transaction().execute(async (trx) => {
    const source = await sourceOf(trx, auth, request)
    const products = new Set(
      (
        await repository.productsOf(
          trx,
          schema,
          businessId,
          request.lines.map((l) => l.productId.toLowerCase()),
        )
      ).map((p) => p.id),
    )
    const delivered = await repository.lockDeliveredLines(trx, schema, businessId, source.where, [
      ...products,
    ])
    const { allocations, reasons: lineProblems } = allocate(request.lines, products, delivered, source.from)
    if (lineProblems.length > 0) throw validationFailed(lineProblems)
    // A shipment without an order is credited on its lines' order, when they are all of one.
    const orders = new Set(allocations.flatMap((a) => (a.line.order_id ? [a.line.order_id] : [])))
    const orderId = source.orderId ?? (orders.size === 1 ? [...orders][0]! : null)
    const customerId =
      source.customerId ??
      (orderId ? ((await repository.orderCustomers(trx, schema, [orderId])).get(orderId) ?? null) : null)
    const id = newId()
    const lines = allocations.map((a, i) => ({
      id: newId(),
      business_id: businessId,
      return_id: id,
      line_number: i + 1,
      shipment_line_id: a.line.id,
      order_line_id: a.line.order_line_id,
      product_id: a.line.product_id,
      quantity: a.quantity,
      unit_price: a.line.unit_price,
      unit_cost: a.line.unit_cost,
      value: round(a.quantity * Number(a.line.unit_price)),
      left_at: a.line.left_at,
      reason: request.lines[a.index]!.reason?.trim() || null,
    }))
    const value = round(lines.reduce((sum, l) => sum + l.value, 0))
    const number = await nextCode(trx, schema, businessId, 'return', 'RMA')
    await repository.insertReturn(
      trx,
      schema,
      {
        id,
        business_id: businessId,
        number,
        order_id: orderId,
        shipment_id: source.shipmentId,
        customer_id: customerId,
        reason: request.reason.trim(),
        notes: request.notes?.trim() || null,
        value,
        created_by_user_id: auth.userId,
      },
      lines,
    )
    await deps.services.events.publish(trx, schema, {
      type: 'ReturnRequested',
      businessId,
      userId: auth.userId,
      payload: {
        returnId: id,
        number,
        orderId,
        shipmentId: source.shipmentId,
        customerId,
        value,
        reason: request.reason.trim(),
        lines: request.lines.map((l) => ({ productId: l.productId.toLowerCase(), quantity: l.quantity })),
      },
    })
    return loadReturn(trx, auth, id)
  })
}
