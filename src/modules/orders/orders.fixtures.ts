import { randomUUID } from 'node:crypto'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { TestContext } from '../../../test/harness.js'

/**
 * Test helpers for orders and customer analytics: customers and shipments are inserted directly
 * into the tenant tables (their own modules are tested elsewhere); orders go through the API.
 */

export type Core = (options: InjectOptions) => Promise<LightMyRequestResponse>

export async function schemaOf(ctx: TestContext, businessId: string): Promise<string> {
  const row = await ctx.database.db
    .selectFrom('global.businesses as b')
    .innerJoin('global.organizations as o', 'o.id', 'b.organization_id')
    .select('o.schema_name')
    .where('b.id', '=', businessId)
    .executeTakeFirstOrThrow()
  return row.schema_name
}

export async function insertCustomer(
  ctx: TestContext,
  businessId: string,
  options: { name?: string; deleted?: boolean } = {},
): Promise<string> {
  const id = randomUUID()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('customers')
    .values({
      id,
      business_id: businessId,
      code: `CUS-${id.slice(0, 8)}`,
      name: options.name ?? `Customer ${id.slice(0, 4)}`,
      email: null,
      phone_number: null,
      customer_group_id: null,
      notes: null,
      deleted_at: options.deleted ? new Date() : null,
    })
    .execute()
  return id
}

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

/** A second business in the organisation of `businessId` (same tenant schema). */
export async function addBusiness(ctx: TestContext, businessId: string): Promise<string> {
  const index = await ctx.database.db
    .selectFrom('global.businesses')
    .select('organization_id')
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow()
  const id = randomUUID()
  await ctx.database.db
    .insertInto('global.businesses')
    .values({ id, organization_id: index.organization_id, parent_business_id: null })
    .execute()
  await ctx.database.db
    .withSchema(await schemaOf(ctx, businessId))
    .insertInto('businesses')
    .values({ id, registered_name: 'Branch', display_name: 'Branch' })
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

/** An unrestricted API key for the owner's business, created through the Global API. */
export async function apiKeyFor(ctx: TestContext, accessToken: string, businessId: string): Promise<string> {
  const response = await ctx.global.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${accessToken}` },
    payload: { businessId, label: 'orders test' },
  })
  if (response.statusCode !== 200) throw new Error(`api key failed: ${response.statusCode} ${response.body}`)
  return response.json().data.token as string
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
