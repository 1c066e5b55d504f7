import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { claimOverdue } from './purchase-orders.repository.js'

/**
 * Publishes PurchaseOrderOverdue for each Submitted or PartiallyReceived purchase order of the
 * business past its expected date that was not announced yet, once per order. The platform runs no
 * periodic jobs, so this runs when the purchase orders are listed (and when the dashboard is read):
 * an order becomes overdue as a day passes, and someone looking is when it matters.
 */
export async function notifyOverdue({ database, services }: AppDeps, auth: BusinessAuth): Promise<number> {
  return database.db.transaction().execute(async (trx) => {
    const overdue = await claimOverdue(trx, auth.schemaName, auth.businessId)
    for (const order of overdue) {
      await services.events.publish(trx, auth.schemaName, {
        type: 'PurchaseOrderOverdue',
        businessId: auth.businessId,
        userId: null,
        payload: {
          purchaseOrderId: order.id,
          number: order.number,
          supplierId: order.supplier_id,
          expectedDate: order.expected_date,
        },
      })
    }
    return overdue.length
  })
}
