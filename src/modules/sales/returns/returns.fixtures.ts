import { expect } from 'vitest'
import type { Core, TestContext } from '../../../../test/harness.js'
import { post, put } from '../../delivery/delivery.fixtures.js'
import { shipment } from '../../delivery/plans/plans.fixtures.js'
import { ok } from '../../manufacturing/manufacturing.fixtures.js'
import { confirmedOrder, stockedShop } from '../reservations/reservations.fixtures.js'

/** Test helpers for returns: an order whose shipment was delivered, all through the API. */

export interface Return {
  id: string
  number: string
  status: string
  orderId: string | null
  shipmentId: string | null
  value: number
  credited: boolean
  receivedAt: string | null
  lines: {
    productId: string
    quantity: number
    unitPrice: number
    unitCost: number
    value: number
    leftAt: string
    ledgerEntryId: string | null
  }[]
}

/**
 * A product with `onHand` units received at 2 each, an order of `ordered` at 5 each, and a shipment
 * of `shipped` of them assigned, dispatched (a Sale at 2) and delivered (unless `deliver` is false).
 */
export async function deliveredOrder(
  ctx: TestContext,
  owner: { core: Core; org: { businessId: string } },
  { onHand = 10, ordered = 6, shipped = 4, deliver = true } = {},
) {
  const { customerId, product } = await stockedShop(ctx, owner, onHand)
  const order = await confirmedOrder(owner.core, customerId, [{ productId: product.id, quantity: ordered }])
  const carrier = await shipment(owner.core, -33.9, 18.4, { orderId: order.id })
  const lines = await put(owner.core, `/api/v1/shipments/${carrier.id}/lines`, {
    lines: [{ orderLineId: order.lines[0]!.id, quantity: shipped }],
  })
  expect(lines.statusCode, lines.body).toBe(200)
  for (const step of ['assign', 'dispatch', ...(deliver ? ['deliver'] : [])]) {
    const moved = await post(
      owner.core,
      `/api/v1/shipments/${carrier.id}/${step}`,
      step === 'deliver' ? {} : undefined,
    )
    expect(moved.statusCode, `${step}: ${moved.body}`).toBe(200)
  }
  return { customerId, product, order, shipment: carrier }
}

export const requestReturn = (core: Core, body: object) => post(core, '/api/v1/returns', body)

export async function requestedReturn(core: Core, body: object) {
  const response = await requestReturn(core, { reason: 'Damaged in transit', ...body })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as Return
}

export const moveReturn = (core: Core, id: string, step: 'receive' | 'write-off' | 'cancel', body?: object) =>
  post(core, `/api/v1/returns/${id}/${step}`, body)

export const orderOf = (core: Core, id: string) =>
  ok<{ status: string; total: number; returnedValue: number }>(core, 'GET', `/api/v1/orders/${id}`)
