import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { invalidPurchaseOrderTransition, purchaseOrderNotFound } from './purchase-orders.errors.js'
import * as repository from './purchase-orders.repository.js'
import type { PurchaseOrderResponse, PurchaseOrderStatus } from './purchase-orders.schemas.js'
import { loadPurchaseOrder } from './purchase-orders.service.js'

/** The moves a client asks for by name, and the statuses each is allowed from. */
export const MOVES_FROM: Record<'Submitted' | 'Cancelled' | 'Closed', readonly PurchaseOrderStatus[]> = {
  Submitted: ['Draft'],
  Cancelled: ['Draft', 'Submitted'],
  // Closing a PartiallyReceived order is a short-close: what is outstanding will not come.
  Closed: ['Received', 'PartiallyReceived'],
}

/** submit / cancel / close, under the order's row lock; submitting publishes PurchaseOrderSubmitted. */
export async function movePurchaseOrder(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  id: string,
  to: keyof typeof MOVES_FROM,
): Promise<PurchaseOrderResponse> {
  return database.db.transaction().execute(async (trx) => {
    const order = await repository.lockPurchaseOrder(trx, auth.schemaName, auth.businessId, id)
    if (!order) throw purchaseOrderNotFound()
    const from = order.status as PurchaseOrderStatus
    if (!MOVES_FROM[to].includes(from)) throw invalidPurchaseOrderTransition(from, to, MOVES_FROM[to])
    await repository.movePurchaseOrder(trx, auth.schemaName, id, to)
    const moved = await loadPurchaseOrder(trx, auth, id)
    if (to === 'Submitted')
      await services.events.publish(trx, auth.schemaName, {
        type: 'PurchaseOrderSubmitted',
        businessId: auth.businessId,
        userId: auth.userId,
        payload: {
          purchaseOrderId: id,
          number: moved.number,
          supplierId: moved.supplierId,
          expectedDate: moved.expectedDate,
        },
      })
    return moved
  })
}
