import type { Core } from '../../../../test/harness.js'
import { createProduct, ok, receive } from '../manufacturing.fixtures.js'

/** Work order test helpers: everything goes through the API. */

export interface WorkOrder {
  id: string
  code: string
  status: string
  standardUnitCost: number | null
  standardTotalCost: number | null
  actualUnitCost: number | null
  actualTotalCost: number | null
  costVariance: number | null
  releasedAt: string | null
  startedAt: string | null
  completedAt: string | null
  cancelledAt: string | null
}

/** Table <- 4 Leg + 1 Top; legs 10 @ 5 and tops 5 @ 50 received on Jan 1. */
export async function tableShop(core: Core) {
  const [table, leg, top] = await Promise.all([
    createProduct(core, { name: 'Table', type: 'FinishedGood' }),
    createProduct(core, { name: 'Leg' }),
    createProduct(core, { name: 'Top' }),
  ])
  await receive(core, leg.id, 10, 5, '2026-01-01T00:00:00Z')
  await receive(core, top.id, 5, 50, '2026-01-01T00:00:00Z')
  const bom = await ok<{ id: string }>(core, 'POST', '/api/v1/bom', {
    productId: table.id,
    name: 'Table',
    lineItems: [
      { productId: leg.id, quantity: 4 },
      { productId: top.id, quantity: 1 },
    ],
  })
  await ok(core, 'POST', `/api/v1/bom/${bom.id}/activate`)
  return { table, leg, top, bom }
}

export const createOrder = (core: Core, bomId: string, quantity: number) =>
  ok<WorkOrder>(core, 'POST', '/api/v1/work-orders', {
    bomId,
    quantity,
    plannedStart: '2026-03-01T08:00:00Z',
    plannedEnd: '2026-03-02T17:00:00Z',
  })
export const step = (core: Core, id: string, path: string, payload?: object) =>
  ok<WorkOrder>(core, 'POST', `/api/v1/work-orders/${id}/${path}`, payload)
