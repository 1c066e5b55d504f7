import { insertCustomer } from '../../../../test/fixtures.js'
import type { Core, TestContext } from '../../../../test/harness.js'
import { createProduct, ok, receive } from '../../manufacturing/manufacturing.fixtures.js'

/** Test helpers for orders that hold and ship stock: everything but the customer goes through the API. */

export interface OrderLine {
  id: string
  lineNumber: number
  productId: string | null
  quantity: number
}
export interface Order {
  id: string
  code: string
  status: string
  customerId: string
  lines: OrderLine[]
}

/** A customer and a product with `onHand` units received at 2 each. */
export async function stockedShop(
  ctx: TestContext,
  owner: { core: Core; org: { businessId: string } },
  onHand = 10,
) {
  const customerId = await insertCustomer(ctx, owner.org.businessId)
  const product = await createProduct(owner.core, { name: 'Crate', type: 'FinishedGood', unitPrice: 5 })
  if (onHand > 0) await receive(owner.core, product.id, onHand, 2)
  return { customerId, product }
}

export const draftOrder = (
  core: Core,
  customerId: string,
  lines: { productId: string | null; quantity: number }[],
) =>
  ok<Order>(core, 'POST', '/api/v1/orders', {
    customerId,
    lines: lines.map((l) => ({ ...l, unitPrice: 5, description: l.productId ? null : 'Service call' })),
  })

export const confirm = (core: Core, orderId: string) =>
  core({ method: 'POST', url: `/api/v1/orders/${orderId}/confirm` })

export async function confirmedOrder(
  core: Core,
  customerId: string,
  lines: { productId: string | null; quantity: number }[],
) {
  const order = await draftOrder(core, customerId, lines)
  const response = await confirm(core, order.id)
  if (response.statusCode !== 200) throw new Error(`confirm: ${response.statusCode} ${response.body}`)
  return response.json().data as Order
}

export interface Availability {
  onHand: number
  reserved: number
  available: number
  backordered: number
  incoming: { source: string; reference: string; date: string | null; quantity: number }[]
}

export const availabilityOf = (core: Core, productId: string) =>
  ok<Availability>(core, 'GET', `/api/v1/products/${productId}/availability`)

export const reservationsOf = (core: Core, orderId: string) =>
  ok<{
    status: string
    lines: { lineNumber: number; reserved: number; backordered: number; ordered: number }[]
  }>(core, 'GET', `/api/v1/orders/${orderId}/reservations`)

export async function setShortConfirmation(core: Core, value: 'Refuse' | 'Backorder') {
  const payload = { 'orders.shortConfirmation': value }
  const response = await core({ method: 'PATCH', url: '/api/settings/business', payload })
  if (response.statusCode !== 200) throw new Error(`setting: ${response.statusCode} ${response.body}`)
}
