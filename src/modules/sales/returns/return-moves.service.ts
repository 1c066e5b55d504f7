import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import {
  effectiveDateOf,
  lockProducts,
  postingScopeOf,
  postProductMovements,
} from '../../manufacturing/index.js'
import { invalidReturnTransition, productArchived, returnNotFound } from './returns.errors.js'
import * as repository from './returns.repository.js'
import type { ReceiveReturnRequest, ReturnResponse, ReturnStatus } from './returns.schemas.js'
import { loadReturn } from './returns.service.js'

type Trx = Transaction<Tables>

/** Target status -> the statuses it may come from. */
const RETURN_MOVES = {
  Received: ['Requested'],
  WrittenOff: ['Requested'],
  Cancelled: ['Requested'],
} as const satisfies Record<string, readonly ReturnStatus[]>

/** The return locked for a state change (404 unless the business's); 409 unless the move is allowed. */
async function lockForMove(trx: Trx, auth: BusinessAuth, id: string, to: keyof typeof RETURN_MOVES) {
  const row = await repository.lockReturn(trx, auth.schemaName, auth.businessId, id)
  if (!row) throw returnNotFound()
  const from = row.status as ReturnStatus
  const allowed: readonly ReturnStatus[] = RETURN_MOVES[to]
  if (!allowed.includes(from)) throw invalidReturnTransition(from, to, allowed)
  return row
}

/**
 * Requested -> Received, in one transaction under the return's row lock (two receipts at once
 * receive once): each line goes back into stock as a SaleReturn at the exact cost its shipment
 * line left with, effective at receivedAt (not before the goods left; a back-dated entry
 * re-values the later ones). Publishes ReturnReceived.
 */
export async function receiveReturn(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: ReceiveReturnRequest,
): Promise<ReturnResponse> {
  const receivedAt = effectiveDateOf(request.receivedAt, 'receivedAt')
  const scope = postingScopeOf(deps.services.events, auth)
  const { schemaName: schema, businessId } = auth
  return deps.database.db.transaction().execute(async (trx) => {
    const row = await lockForMove(trx, auth, id, 'Received')
    const lines = await repository.linesOf(trx, schema, id)
    const leftAt = Math.max(...lines.map((l) => l.left_at.getTime()))
    if (receivedAt.getTime() < leftAt)
      throw invalidField('receivedAt', `must not be before the goods left, ${new Date(leftAt).toISOString()}`)
    const products = new Map(
      (await lockProducts(trx, schema, businessId, [...new Set(lines.map((l) => l.product_id))])).map((p) => [
        p.id,
        p,
      ]),
    )
    lines.forEach((line, index) => {
      if (products.get(line.product_id)?.archived_at) throw productArchived(line.line_number, index)
    })
    const { entryIds } = await postProductMovements(
      trx,
      scope,
      lines.map((line) => ({
        product: products.get(line.product_id)!,
        movement: {
          type: 'SaleReturn',
          quantity: Number(line.quantity),
          receivedCost: Number(line.unit_cost),
          effectiveDate: receivedAt,
          reason: row.reason,
          reference: row.number,
          workOrderId: null,
        },
      })),
      (index) => `lines.${index}`,
    )
    await repository.setLineEntries(
      trx,
      schema,
      lines.map((l, i) => ({ id: l.id, entryId: entryIds[i]! })),
    )
    await repository.setStatus(trx, schema, id, { status: 'Received', received_at: receivedAt })
    await deps.services.events.publish(trx, schema, {
      type: 'ReturnReceived',
      businessId,
      userId: auth.userId,
      payload: {
        returnId: id,
        number: row.number,
        orderId: row.order_id,
        shipmentId: row.shipment_id,
        customerId: row.customer_id,
        value: Number(row.value),
        receivedAt: receivedAt.toISOString(),
        lines: lines.map((l) => ({
          productId: l.product_id,
          quantity: Number(l.quantity),
          unitCost: Number(l.unit_cost),
        })),
      },
    })
    return loadReturn(trx, auth, id)
  })
}

/** Requested -> WrittenOff: credited on the order, nothing comes back into stock. Publishes ReturnWrittenOff. */
export async function writeOffReturn(deps: AppDeps, auth: BusinessAuth, id: string): Promise<ReturnResponse> {
  return deps.database.db.transaction().execute(async (trx) => {
    const row = await lockForMove(trx, auth, id, 'WrittenOff')
    const writtenOffAt = new Date()
    await repository.setStatus(trx, auth.schemaName, id, {
      status: 'WrittenOff',
      written_off_at: writtenOffAt,
    })
    await deps.services.events.publish(trx, auth.schemaName, {
      type: 'ReturnWrittenOff',
      businessId: auth.businessId,
      userId: auth.userId,
      payload: {
        returnId: id,
        number: row.number,
        orderId: row.order_id,
        shipmentId: row.shipment_id,
        customerId: row.customer_id,
        value: Number(row.value),
        writtenOffAt: writtenOffAt.toISOString(),
      },
    })
    return loadReturn(trx, auth, id)
  })
}

/** Requested -> Cancelled: nothing credited; what it took of the delivered lines may be returned again. */
export async function cancelReturn(deps: AppDeps, auth: BusinessAuth, id: string): Promise<ReturnResponse> {
  return deps.database.db.transaction().execute(async (trx) => {
    await lockForMove(trx, auth, id, 'Cancelled')
    await repository.setStatus(trx, auth.schemaName, id, { status: 'Cancelled', cancelled_at: new Date() })
    return loadReturn(trx, auth, id)
  })
}
