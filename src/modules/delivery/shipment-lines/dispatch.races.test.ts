import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { createProduct, ledgerOf, receive, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import { post, put } from '../delivery.fixtures.js'
import { movePlan, plan, shipment } from '../plans/plans.fixtures.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)

/** A scheduled plan of one shipment carrying `quantity` of the product. */
async function scheduledPlanCarrying(core: Core, productId: string, quantity: number) {
  const parcel = await shipment(core)
  const lines = await put(core, `/api/v1/shipments/${parcel.id}/lines`, { lines: [{ productId, quantity }] })
  expect(lines.statusCode, lines.body).toBe(200)
  const route = await plan(core)
  expect(
    (await post(core, `/api/v1/plans/${route.id}/shipments`, { shipmentId: parcel.id })).statusCode,
  ).toBe(200)
  expect((await movePlan(core, route.id, 'schedule')).statusCode).toBe(200)
  return route
}

// Dispatch locks the plan, then the products it issues: each race below queues both requests on one row.
describe.skipIf(!testDatabaseUrl())('dispatches racing (PostgreSQL)', () => {
  it('issues the goods once when one plan is dispatched twice at once', async () => {
    const product = await createProduct(owner.core, { type: 'FinishedGood' })
    await receive(owner.core, product.id, 5, 2)
    const route = await scheduledPlanCarrying(owner.core, product.id, 3)
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'delivery_plans', id: route.id },
      () => Promise.all([1, 2].map(() => movePlan(owner.core, route.id, 'dispatch'))),
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 2 })
    expect((await ledgerOf(owner.core, product.id)).filter((e) => e.type === 'Sale')).toHaveLength(1)
  })

  it('lets only one of two plans take the last units, and never takes the stock below zero', async () => {
    const product = await createProduct(owner.core, { type: 'FinishedGood' })
    await receive(owner.core, product.id, 3, 2)
    const routes = [
      await scheduledPlanCarrying(owner.core, product.id, 2),
      await scheduledPlanCarrying(owner.core, product.id, 2),
    ]
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'products', id: product.id },
      () => Promise.all(routes.map((r) => movePlan(owner.core, r.id, 'dispatch'))),
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(result.find((r) => r.statusCode === 409)?.json().code).toBe('stock_shortfall')
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 1 })
  })
})
