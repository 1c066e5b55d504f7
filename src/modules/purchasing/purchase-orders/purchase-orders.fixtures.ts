import { randomUUID } from 'node:crypto'
import { schemaOf } from '../../../../test/fixtures.js'
import type { Core, TestContext } from '../../../../test/harness.js'
import { createProduct, ok, type Product } from '../../manufacturing/manufacturing.fixtures.js'

/** Purchase order test helpers: suppliers and their terms inserted directly, everything else through the API. */

export interface PurchaseOrderLine {
  id: string
  lineNumber: number
  productId: string
  quantity: number
  unitCost: number
  lineTotal: number
  receivedQuantity: number
  outstandingQuantity: number
}

export interface PurchaseOrder {
  id: string
  number: string
  status: string
  supplierId: string
  currency: string
  expectedDate: string | null
  isOverdue: boolean
  lines: PurchaseOrderLine[]
  total: number
  receivedTotal: number
  submittedAt: string | null
  receivedAt: string | null
  closedAt: string | null
  cancelledAt: string | null
}

export interface Receipt {
  id: string
  purchaseOrderStatus: string
  effectiveDate: string
  lines: {
    id: string
    lineId: string
    productId: string
    quantity: number
    ledgerEntryId: string
    reversalEntryId: string | null
  }[]
  reversedAt: string | null
}

export async function insertSupplier(
  ctx: TestContext,
  businessId: string,
  options: {
    name?: string
    currency?: string
    leadTimeDays?: number
    isActive?: boolean
    deleted?: boolean
  } = {},
): Promise<string> {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('suppliers')
    .values({
      id,
      business_id: businessId,
      code: `SUP-${id.slice(0, 8)}`,
      name: options.name ?? `Supplier ${id.slice(0, 4)}`,
      email: null,
      phone_number: null,
      website: null,
      currency: options.currency ?? 'USD',
      lead_time_days: options.leadTimeDays ?? 0,
      tax_number: null,
      notes: null,
      is_active: options.isActive ?? true,
      deleted_at: options.deleted ? new Date() : null,
    })
    .execute()
  return id
}

export async function setTerms(
  ctx: TestContext,
  businessId: string,
  supplierId: string,
  productId: string,
  terms: { unitCost: number; minimumOrderQuantity?: number; leadTimeDays?: number; isPreferred?: boolean },
) {
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('supplier_products')
    .values({
      id: randomUUID(),
      business_id: businessId,
      supplier_id: supplierId,
      product_id: productId,
      supplier_sku: null,
      unit_cost: terms.unitCost,
      minimum_order_quantity: terms.minimumOrderQuantity ?? 0,
      lead_time_days: terms.leadTimeDays ?? null,
      is_preferred: terms.isPreferred ?? false,
    })
    .execute()
}

/** A supplier selling two raw materials: steel at 4.5 and bolts at 0.25 (its terms). */
export async function supplierShop(ctx: TestContext, owner: { core: Core; org: { businessId: string } }) {
  const businessId = owner.org.businessId
  const supplierId = await insertSupplier(ctx, businessId, {
    name: 'Acme Metals',
    currency: 'EUR',
    leadTimeDays: 5,
  })
  const [steel, bolt] = await Promise.all([
    createProduct(owner.core, { name: 'Steel rod' }),
    createProduct(owner.core, { name: 'Bolt' }),
  ])
  await setTerms(ctx, businessId, supplierId, steel.id, { unitCost: 4.5, isPreferred: true })
  await setTerms(ctx, businessId, supplierId, bolt.id, { unitCost: 0.25 })
  return { supplierId, steel, bolt }
}

export const createPurchaseOrder = (core: Core, body: Record<string, unknown>) =>
  ok<PurchaseOrder>(core, 'POST', '/api/v1/purchase-orders', body)

/** A Submitted order of 10 steel (at the terms' 4.5) and 100 bolts at 0.3. */
export async function submittedOrder(
  core: Core,
  shop: { supplierId: string; steel: Product; bolt: Product },
) {
  const order = await createPurchaseOrder(core, {
    supplierId: shop.supplierId,
    expectedDate: '2026-12-01',
    lines: [
      { productId: shop.steel.id, quantity: 10 },
      { productId: shop.bolt.id, quantity: 100, unitCost: 0.3 },
    ],
  })
  return step(core, order.id, 'submit')
}

export const step = (core: Core, id: string, path: string, payload?: object) =>
  ok<PurchaseOrder>(core, 'POST', `/api/v1/purchase-orders/${id}/${path}`, payload)

export const receiveGoods = (core: Core, id: string, body: Record<string, unknown>) =>
  core({ method: 'POST', url: `/api/v1/purchase-orders/${id}/receipts`, payload: body })

export const receiveOk = (core: Core, id: string, body: Record<string, unknown>) =>
  ok<Receipt>(core, 'POST', `/api/v1/purchase-orders/${id}/receipts`, body)

export const getOrder = (core: Core, id: string) =>
  ok<PurchaseOrder>(core, 'GET', `/api/v1/purchase-orders/${id}`)
