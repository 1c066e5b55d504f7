import type { Database } from '../../../db/database.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { costBom } from '../boms/index.js'
import { round } from '../decimals.js'
import { lockProducts } from '../products/index.js'
import { allowsNegative, availableAt, effectiveDateOf, postingScopeOf, postMovement } from '../stock/index.js'
import { componentShortfall, invalidWorkOrderTransition, workOrderNotFound } from './work-orders.errors.js'
import * as repository from './work-orders.repository.js'
import type { CompleteWorkOrderRequest, WorkOrderResponse, WorkOrderStatus } from './work-orders.schemas.js'
import { loadWorkOrder } from './work-orders.service.js'

const FROM: Record<'Released' | 'InProgress' | 'Cancelled', readonly WorkOrderStatus[]> = {
  Released: ['Draft'],
  InProgress: ['Released'],
  Cancelled: ['Draft', 'Released', 'InProgress'],
}

/** release / start / cancel. Release freezes the standard cost from the BOM's cost at that moment. */
export async function moveWorkOrder(
  database: Database,
  auth: BusinessAuth,
  id: string,
  to: 'Released' | 'InProgress' | 'Cancelled',
): Promise<WorkOrderResponse> {
  return database.db.transaction().execute(async (trx) => {
    const order = await repository.lockWorkOrder(trx, auth.schemaName, auth.businessId, id)
    if (!order) throw workOrderNotFound()
    const from = order.status as WorkOrderStatus
    if (!FROM[to].includes(from)) throw invalidWorkOrderTransition(from, to, FROM[to])
    let standard = {}
    if (to === 'Released') {
      const cost = await costBom(trx, auth, order.bom_id, new Date())
      standard = {
        standard_unit_cost: cost.unitCost,
        standard_total_cost: round(cost.unitCost * Number(order.quantity)),
      }
    }
    await repository.moveWorkOrder(trx, auth.schemaName, id, to, standard)
    return loadWorkOrder(trx, auth, id)
  })
}

/**
 * Released or InProgress -> Completed, in one transaction at the effective date: every component
 * and the product are locked (id order), short components refuse the whole completion (409 with
 * each product and its shortfall), then each component is issued at its moving average there and
 * the product received at the actual cost of what was consumed.
 */
export async function completeWorkOrder(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: CompleteWorkOrderRequest,
): Promise<WorkOrderResponse> {
  const effectiveDate = effectiveDateOf(request.effectiveDate)
  const scope = postingScopeOf(services.events, auth)
  return database.db.transaction().execute(async (trx) => {
    const order = await repository.lockWorkOrder(trx, auth.schemaName, auth.businessId, id)
    if (!order) throw workOrderNotFound()
    const from = order.status as WorkOrderStatus
    if (from !== 'Released' && from !== 'InProgress')
      throw invalidWorkOrderTransition(from, 'Completed', ['Released', 'InProgress'])
    const produced = request.quantityProduced ?? Number(order.quantity)
    const needs = (await repository.componentNeeds(trx, auth.schemaName, order.bom_id, produced)).filter(
      (n) => n.required > 0,
    )
    const products = await lockProducts(trx, auth.schemaName, auth.businessId, [
      ...new Set([...needs.map((n) => n.productId), order.product_id]),
    ])
    const byId = new Map(products.map((p) => [p.id, p]))
    const negative = await allowsNegative(trx, scope)
    if (!negative) {
      const available = await availableAt(
        trx,
        auth.schemaName,
        needs.map((n) => n.productId),
        effectiveDate,
      )
      const short = needs
        .map((n) => ({ n, has: Math.max(0, available.get(n.productId) ?? 0) }))
        .filter(({ n, has }) => has < n.required)
        .map(({ n, has }) => ({
          sku: byId.get(n.productId)!.sku,
          short: round(n.required - has),
          required: n.required,
          available: has,
        }))
      if (short.length > 0) throw componentShortfall(short)
    }
    const movement = {
      effectiveDate,
      reason: null,
      reference: order.code,
      workOrderId: id,
      receivedCost: null,
    }
    let actual = 0
    for (const need of needs) {
      const entry = await postMovement(
        trx,
        scope,
        byId.get(need.productId)!,
        { ...movement, type: 'WorkOrderIssue', quantity: -need.required },
        negative,
      )
      actual += need.required * Number(entry.unit_cost)
    }
    const actualTotal = round(actual)
    const unitCost = round(actualTotal / produced, 6)
    await postMovement(
      trx,
      scope,
      byId.get(order.product_id)!,
      { ...movement, type: 'WorkOrderReceipt', quantity: produced, receivedCost: unitCost },
      negative,
    )
    await repository.completeWorkOrder(trx, auth.schemaName, id, {
      effective_date: effectiveDate,
      quantity_produced: produced,
      actual_total_cost: actualTotal,
      actual_unit_cost: unitCost,
    })
    await services.events.publish(trx, auth.schemaName, {
      type: 'WorkOrderCompleted',
      businessId: auth.businessId,
      userId: auth.userId,
      payload: { workOrderId: id, code: order.code, productId: order.product_id, quantityProduced: produced },
    })
    return loadWorkOrder(trx, auth, id)
  })
}
