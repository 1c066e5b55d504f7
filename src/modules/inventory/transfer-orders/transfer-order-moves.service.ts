import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { AppError, type Reason, validationFailed } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import {
  effectiveDateOf,
  lockProducts,
  type PostingScope,
  type ProductRow,
  postingScopeOf,
  postMovement,
} from '../../manufacturing/index.js'
import {
  invalidTransferTransition,
  lineProductUnusable,
  overReceipt,
  transferOrderNotFound,
  wrongSide,
} from './transfer-orders.errors.js'
import { round } from './transfer-orders.mapper.js'
import * as repository from './transfer-orders.repository.js'
import { quantityReasons } from './transfer-orders.rules.js'
import type {
  ReceiveTransferOrderRequest,
  ShipTransferOrderRequest,
  TransferOrderResponse,
  TransferOrderStatus,
} from './transfer-orders.schemas.js'
import { loadTransferOrder } from './transfer-orders.service.js'

type Trx = Transaction<Tables>

/** The order locked for a state change: 404 unless the business is one of its sides. */
async function lockOrder(trx: Trx, auth: BusinessAuth, id: string) {
  const order = await repository.lockTransferOrder(trx, auth.schemaName, auth.businessId, id)
  if (!order) throw transferOrderNotFound()
  return order
}

/** Locks the products of one side (id order) and refuses one that can no longer move, naming its line. */
async function lockLineProducts(
  trx: Trx,
  schema: string,
  businessId: string,
  productIds: readonly string[],
  field: (index: number) => string,
) {
  const locked = await lockProducts(trx, schema, businessId, [...new Set(productIds)])
  const byId = new Map(locked.map((p) => [p.id, p]))
  productIds.forEach((id, index) => {
    const product = byId.get(id)
    if (!product) throw lineProductUnusable(field(index), 'is no longer a product of its business')
    if (product.type === 'Service')
      throw lineProductUnusable(field(index), 'is a Service, which holds no stock')
    if (product.archived_at !== null) throw lineProductUnusable(field(index), 'is archived')
  })
  return byId
}

/** Posts one line's movement; a shortfall names the line (`lines.<n>.quantity`). */
async function postLine(
  trx: Trx,
  scope: PostingScope,
  product: ProductRow,
  movement: Parameters<typeof postMovement>[3],
  field: string,
) {
  try {
    return await postMovement(trx, scope, product, movement)
  } catch (error) {
    if (error instanceof AppError && error.code === 'stock_shortfall')
      throw new AppError(409, error.code, error.message, [
        { field, message: error.reasons[0]?.message ?? '' },
      ])
    throw error
  }
}

/**
 * Draft -> Shipped, by the source business, in one transaction: the order row is locked first (so
 * two ships at once ship once), then its products in id order; each line is issued at the
 * moving average at effectiveDate and keeps the exact cost it left with.
 */
export async function shipTransferOrder(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: ShipTransferOrderRequest,
): Promise<TransferOrderResponse> {
  const effectiveDate = effectiveDateOf(request.effectiveDate)
  const scope = postingScopeOf(deps.services.events, auth)
  return deps.database.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, auth, id)
    if (order.source_business_id !== auth.businessId) throw wrongSide('ship', 'source')
    const from = order.status as TransferOrderStatus
    if (from !== 'Draft') throw invalidTransferTransition(from, 'Shipped', ['Draft'])
    const lines = await repository.linesOf(trx, auth.schemaName, id)
    const products = await lockLineProducts(
      trx,
      auth.schemaName,
      auth.businessId,
      lines.map((l) => l.source_product_id),
      (index) => `lines.${index}.productId`,
    )
    for (const [index, line] of lines.entries()) {
      const entry = await postLine(
        trx,
        scope,
        products.get(line.source_product_id)!,
        {
          type: 'TransferIssue',
          quantity: -Number(line.quantity),
          receivedCost: null,
          effectiveDate,
          reason: null,
          reference: order.number,
          workOrderId: null,
        },
        `lines.${index}.quantity`,
      )
      await repository.setLineCost(trx, auth.schemaName, line.id, entry.unit_cost)
    }
    await repository.setStatus(trx, auth.schemaName, id, { status: 'Shipped', shipped_at: effectiveDate })
    await deps.services.events.publish(trx, auth.schemaName, {
      type: 'TransferOrderShipped',
      businessId: auth.businessId,
      userId: auth.userId,
      payload: {
        transferOrderId: id,
        number: order.number,
        sourceBusinessId: order.source_business_id,
        destinationBusinessId: order.destination_business_id,
      },
    })
    return loadTransferOrder(trx, auth, id)
  })
}

/** Draft -> Cancelled, by the source business; nothing was posted, so nothing is reversed. */
export async function cancelTransferOrder(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
): Promise<TransferOrderResponse> {
  return deps.database.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, auth, id)
    if (order.source_business_id !== auth.businessId) throw wrongSide('cancel', 'source')
    const from = order.status as TransferOrderStatus
    if (from !== 'Draft') throw invalidTransferTransition(from, 'Cancelled', ['Draft'])
    await repository.setStatus(trx, auth.schemaName, id, { status: 'Cancelled', cancelled_at: new Date() })
    return loadTransferOrder(trx, auth, id)
  })
}

type LineRow = Awaited<ReturnType<typeof repository.linesOf>>[number]

/** What a receipt takes: the lines named (each at most once, at most what is in transit), or all outstanding. */
function receiptLines(lines: readonly LineRow[], request: ReceiveTransferOrderRequest) {
  const outstanding = (line: LineRow) => round(Number(line.quantity) - Number(line.quantity_received))
  if (request.lines === undefined)
    return lines.filter((l) => outstanding(l) > 0).map((line) => ({ line, quantity: outstanding(line) }))
  const reasons: Reason[] = quantityReasons(request.lines)
  const byId = new Map(lines.map((l) => [l.id, l]))
  const seen = new Set<string>()
  const wanted = request.lines.flatMap((r, index) => {
    const lineId = r.lineId.toLowerCase()
    const line = byId.get(lineId)
    if (!line)
      reasons.push({ field: `lines.${index}.lineId`, message: 'must be a line of this transfer order' })
    else if (seen.has(lineId))
      reasons.push({ field: `lines.${index}.lineId`, message: 'appears more than once' })
    seen.add(lineId)
    return line ? [{ line, quantity: r.quantity, index }] : []
  })
  if (reasons.length > 0) throw validationFailed(reasons)
  for (const { line, quantity, index } of wanted)
    if (quantity > outstanding(line)) throw overReceipt(`lines.${index}.quantity`, outstanding(line))
  return wanted
}

/**
 * Shipped or PartiallyReceived -> PartiallyReceived or Received, by the destination business, in
 * one transaction under the order's row lock (so two receipts at once never take more than
 * shipped): each line is received into its destination product at the cost it left with.
 */
export async function receiveTransferOrder(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: ReceiveTransferOrderRequest,
): Promise<TransferOrderResponse> {
  const effectiveDate = effectiveDateOf(request.effectiveDate)
  const scope = postingScopeOf(deps.services.events, auth)
  return deps.database.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, auth, id)
    if (order.destination_business_id !== auth.businessId) throw wrongSide('receive', 'destination')
    const from = order.status as TransferOrderStatus
    if (from !== 'Shipped' && from !== 'PartiallyReceived')
      throw invalidTransferTransition(from, 'Received', ['Shipped', 'PartiallyReceived'])
    if (order.shipped_at && effectiveDate < order.shipped_at)
      throw validationFailed([
        {
          field: 'effectiveDate',
          message: `must not be before the ship date ${order.shipped_at.toISOString()}`,
        },
      ])
    const lines = await repository.linesOf(trx, auth.schemaName, id)
    const receipt = receiptLines(lines, request)
    const products = await lockLineProducts(
      trx,
      auth.schemaName,
      auth.businessId,
      receipt.map((r) => r.line.destination_product_id),
      (index) => `lines.${index}.lineId`,
    )
    for (const [index, { line, quantity }] of receipt.entries()) {
      await postLine(
        trx,
        scope,
        products.get(line.destination_product_id)!,
        {
          type: 'TransferReceipt',
          quantity,
          receivedCost: Number(line.unit_cost),
          effectiveDate,
          reason: null,
          reference: order.number,
          workOrderId: null,
        },
        `lines.${index}.quantity`,
      )
      await repository.addReceived(trx, auth.schemaName, line.id, quantity)
    }
    await repository.insertReceipt(
      trx,
      auth.schemaName,
      { id: newId(), transfer_order_id: id, effective_date: effectiveDate, created_by_user_id: auth.userId },
      receipt.map((r) => ({ line_id: r.line.id, quantity: r.quantity })),
    )
    const received = new Map(receipt.map((r) => [r.line.id, r.quantity]))
    const complete = lines.every(
      (l) => round(Number(l.quantity_received) + (received.get(l.id) ?? 0)) >= Number(l.quantity),
    )
    const status: TransferOrderStatus = complete ? 'Received' : 'PartiallyReceived'
    await repository.setStatus(trx, auth.schemaName, id, {
      status,
      ...(complete ? { received_at: effectiveDate } : {}),
    })
    await deps.services.events.publish(trx, auth.schemaName, {
      type: 'TransferOrderReceived',
      businessId: auth.businessId,
      userId: auth.userId,
      payload: {
        transferOrderId: id,
        number: order.number,
        sourceBusinessId: order.source_business_id,
        destinationBusinessId: order.destination_business_id,
        status,
      },
    })
    return loadTransferOrder(trx, auth, id)
  })
}
