import type { Reason } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { lockProducts } from '../products/index.js'
import { type Movement, postingScopeOf, postProductMovements } from './ledger.service.js'
import {
  rowsNotValid,
  rowsOfArchivedProducts,
  rowsOfServices,
  rowsOfUnknownProducts,
} from './stock.errors.js'
import type { BulkStockMovementsRequest, BulkStockMovementsResponse } from './stock.schemas.js'
import { checkMovement } from './stock-movement.rules.js'

const rowField = (index: number) => `movements.${index}`

/**
 * Opening balances and history: checks every row (400 naming `movements.<index>.<field>`), then in
 * one transaction locks the products in id order (404 for a product that is not the business's,
 * 409 for a Service or an archived one, each naming its rows), inserts each product's rows and
 * re-values its ledger once (409 stock_shortfall naming the row when a point in time would go
 * below zero). All or nothing.
 */
export async function postStockMovementsBulk(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  request: BulkStockMovementsRequest,
): Promise<BulkStockMovementsResponse> {
  const reasons: Reason[] = []
  const byProduct = new Map<string, { movements: Movement[]; rows: number[] }>()
  request.movements.forEach((row, index) => {
    const checked = checkMovement(row, `${rowField(index)}.`)
    reasons.push(...checked.reasons)
    if (!checked.movement) return
    const group = byProduct.get(row.productId) ?? { movements: [], rows: [] }
    group.movements.push(checked.movement)
    group.rows.push(index)
    byProduct.set(row.productId, group)
  })
  if (reasons.length > 0) throw rowsNotValid(reasons)

  const { schemaName, businessId } = auth
  const scope = postingScopeOf(services.events, auth)
  const rowsOf = (productId: string, message: string) =>
    (byProduct.get(productId)?.rows ?? []).map((row) => ({ field: `${rowField(row)}.productId`, message }))
  return database.db.transaction().execute(async (trx) => {
    const products = await lockProducts(trx, schemaName, businessId, [...byProduct.keys()])
    const found = new Set(products.map((p) => p.id))
    const missing = [...byProduct.keys()].filter((id) => !found.has(id))
    if (missing.length > 0)
      throw rowsOfUnknownProducts(
        missing.flatMap((id) => rowsOf(id, 'no product of this business has this id')),
      )
    const services = products.filter((p) => p.type === 'Service')
    if (services.length > 0)
      throw rowsOfServices(services.flatMap((p) => rowsOf(p.id, 'a Service product holds no stock')))
    const archived = products.filter((p) => p.archived_at !== null)
    if (archived.length > 0)
      throw rowsOfArchivedProducts(
        archived.flatMap((p) => rowsOf(p.id, 'an archived product takes no stock movements')),
      )
    const postings = products.flatMap((product) => {
      const group = byProduct.get(product.id)!
      return group.movements.map((movement, k) => ({ product, movement, row: group.rows[k] ?? 0 }))
    })
    const { stock: results } = await postProductMovements(trx, scope, postings, (k) =>
      rowField(postings[k]?.row ?? 0),
    )
    const stock: BulkStockMovementsResponse['products'] = products.map((product) => {
      const result = results.get(product.id)!
      return {
        productId: product.id,
        posted: byProduct.get(product.id)!.movements.length,
        revalued: result.revalued ?? 0,
        onHand: Number(result.last_balance),
        averageCost: Number(result.shown_average),
        value: Number(result.shown_value),
      }
    })
    return { posted: request.movements.length, products: stock }
  })
}
