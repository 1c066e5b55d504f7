import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { purchaseOrderFigures } from './figures.repository.js'
import { notifyOverdue } from './overdue.service.js'
import { PURCHASE_ORDER_STATUSES, type PurchaseOrderFiguresResponse } from './purchase-orders.schemas.js'

/** The dashboard's purchase order figures; reading them announces newly overdue orders first. */
export async function getPurchaseOrderFigures(
  deps: AppDeps,
  auth: BusinessAuth,
): Promise<PurchaseOrderFiguresResponse> {
  await notifyOverdue(deps, auth)
  const row = await purchaseOrderFigures(deps.database.db, auth.schemaName, auth.businessId)
  return {
    byStatus: Object.fromEntries(PURCHASE_ORDER_STATUSES.map((s) => [s, Number(row.by_status[s] ?? 0)])),
    openCount: Number(row.open_count),
    overdueCount: Number(row.overdue_count),
    openValues: row.open_values.map((v) => ({
      currency: v.currency,
      count: Number(v.count),
      total: Number(v.total),
      outstanding: Number(v.outstanding),
    })),
  }
}
