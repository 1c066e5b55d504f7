import { randomUUID } from 'node:crypto'
import { schemaOf } from '../../../../test/fixtures.js'
import type { Core, TestContext } from '../../../../test/harness.js'

/**
 * Test helpers for orders and customer analytics: shipments are inserted directly into the tenant
 * table, like customers (insertCustomer in test/fixtures.ts), as their own modules are tested
 * elsewhere; orders go through the API.
 */

export async function deleteCustomer(ctx: TestContext, businessId: string, customerId: string) {
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .updateTable('customers')
    .set({ deleted_at: new Date() })
    .where('id', '=', customerId)
    .execute()
}

export async function insertShipment(
  ctx: TestContext,
  businessId: string,
  shipment: { customerId: string; status: string; fulfillmentCost: number | string },
) {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('shipments')
    .values({
      id,
      business_id: businessId,
      code: `SHP-${id.slice(0, 8)}`,
      customer_id: shipment.customerId,
      status: shipment.status,
      fulfillment_cost: shipment.fulfillmentCost,
      scheduled_date: null,
      delivered_at: null,
    })
    .execute()
  return id
}

export interface LineBody {
  productId?: string | null
  description?: string | null
  quantity: number
  unitPrice: number
}

export const line = (quantity: number, unitPrice: number, description = 'Widget'): LineBody => ({
  description,
  quantity,
  unitPrice,
})

export async function createOrder(core: Core, body: Record<string, unknown>) {
  const response = await core({ method: 'POST', url: '/api/v1/orders', payload: body })
  if (response.statusCode !== 200)
    throw new Error(`create order failed: ${response.statusCode} ${response.body}`)
  return response.json().data as { id: string; code: string; total: number; status: string }
}

const PATH_TO = { Confirmed: ['confirm'], Fulfilled: ['confirm', 'fulfill'], Cancelled: ['cancel'] } as const

/** Creates an order through the API and moves it to `status` with the status operations. */
export async function orderWithStatus(
  core: Core,
  body: Record<string, unknown>,
  status: 'Draft' | 'Confirmed' | 'Fulfilled' | 'Cancelled',
) {
  const order = await createOrder(core, body)
  if (status === 'Draft') return order
  for (const step of PATH_TO[status]) {
    const response = await core({ method: 'POST', url: `/api/v1/orders/${order.id}/${step}` })
    if (response.statusCode !== 200)
      throw new Error(`${step} failed: ${response.statusCode} ${response.body}`)
  }
  return order
}

export async function tracesOf(ctx: TestContext, businessId: string, customerId: string) {
  return ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .selectFrom('activity_traces')
    .select(['type', 'order_id', 'source', 'note', 'created_by_user_id', 'business_id'])
    .where('customer_id', '=', customerId)
    .orderBy('occurred_at')
    .orderBy('date_created')
    .execute()
}
