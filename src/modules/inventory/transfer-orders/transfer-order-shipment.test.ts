import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { plan } from '../../delivery/plans/plans.fixtures.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { ok } from '../../manufacturing/manufacturing.fixtures.js'
import {
  createTransfer,
  daysFromNow,
  headAndBranch,
  productPair,
  type TransferOrder,
} from './transfer-orders.fixtures.js'

const ctx = useTestContext()

const BRANCH_ADDRESS = {
  fullAddress: '12 Voortrekker Road, Bellville',
  city: 'Bellville',
  country: 'ZA',
  latitude: -33.9,
  longitude: 18.63,
}

async function setUp() {
  const setup = await headAndBranch(ctx)
  const { head, branch, branchId } = setup
  await ok(head, 'PUT', `/api/business/${branchId}`, {
    registeredName: 'Branch',
    displayName: 'Branch',
    address: BRANCH_ADDRESS,
  })
  const { source } = await productPair(head, branch, 10, 3, daysFromNow(-5))
  const order = await createTransfer(head, {
    destinationBusinessId: branchId,
    lines: [{ productId: source.id, quantity: 4 }],
  })
  return { ...setup, order }
}

describe('the shipment of a transfer order', () => {
  it('goes from the source business to the destination business, on a delivery plan', async () => {
    const { head, branch, order } = await setUp()
    const morning = await plan(head)
    const url = `/api/v1/transfer-orders/${order.id}/shipment`
    const linked = await ok<TransferOrder>(head, 'POST', url, { deliveryPlanId: morning.id, weight: 40 })
    expect(linked.shipmentId).toEqual(expect.any(String))
    const shipment = await ok<Record<string, unknown>>(head, 'GET', `/api/v1/shipments/${linked.shipmentId}`)
    expect(shipment).toMatchObject({
      status: 'Assigned',
      weight: 40,
      notes: `Transfer ${order.number}`,
      pickupAddress: { city: 'Cape Town' },
      deliveryAddress: { fullAddress: BRANCH_ADDRESS.fullAddress, latitude: -33.9, longitude: 18.63 },
    })
    const onPlan = await ok<{ shipments: { id: string }[] }>(head, 'GET', `/api/v1/plans/${morning.id}`)
    expect(onPlan.shipments.map((s) => s.id)).toEqual([linked.shipmentId])
    // The branch sees which shipment carries its incoming transfer.
    expect(await ok<TransferOrder>(branch, 'GET', `/api/v1/transfer-orders/${order.id}`)).toMatchObject({
      shipmentId: linked.shipmentId,
    })

    const twice = await head({ method: 'POST', url, payload: {} })
    expect([twice.statusCode, twice.json().code]).toEqual([409, 'transfer_order_has_shipment'])
  })

  it('is refused to the destination, for a cancelled transfer, and for an unknown plan (nothing created)', async () => {
    const { head, branch, order, branchId } = await setUp()
    const url = `/api/v1/transfer-orders/${order.id}/shipment`
    const byBranch = await branch({ method: 'POST', url, payload: {} })
    expect([byBranch.statusCode, byBranch.json().code]).toEqual([409, 'transfer_order_wrong_business'])
    const noPlan = await head({ method: 'POST', url, payload: { deliveryPlanId: randomUUID() } })
    expect([noPlan.statusCode, noPlan.json().code]).toEqual([404, 'delivery_plan_not_found'])
    expect(
      (await ok<TransferOrder>(head, 'GET', `/api/v1/transfer-orders/${order.id}`)).shipmentId,
    ).toBeNull()
    expect((await head({ url: '/api/v1/shipments' })).json().totalCount).toBe(0)
    const badWeight = await head({ method: 'POST', url, payload: { weight: -1 } })
    expect(badWeight.statusCode).toBe(400)

    const { source } = await productPair(head, branch, 5, 1, daysFromNow(-5))
    const other = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    await ok(head, 'POST', `/api/v1/transfer-orders/${other.id}/cancel`)
    const cancelled = await head({
      method: 'POST',
      url: `/api/v1/transfer-orders/${other.id}/shipment`,
      payload: {},
    })
    expect([cancelled.statusCode, cancelled.json().code]).toEqual([409, 'transfer_order_not_shippable'])
    const unknown = await head({
      method: 'POST',
      url: `/api/v1/transfer-orders/${randomUUID()}/shipment`,
      payload: {},
    })
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'transfer_order_not_found'])
  })

  it('needs TransferOrders Modify', async () => {
    const { owner, order } = await setUp()
    await expectAccess(ctx, owner, 'TransferOrders', 2, [
      { method: 'POST', url: `/api/v1/transfer-orders/${order.id}/shipment`, payload: { weight: -1 } },
    ])
  })
})
