import { randomUUID } from 'node:crypto'
import type { Core } from '../../../../test/harness.js'
import { createProduct, ok, receive } from '../manufacturing.fixtures.js'

/** BOM test helpers: everything goes through the API. */

export interface Bom {
  id: string
  code: string
  revision: number
  status: string
  activatedAt: string | null
  lineItems: { id: string; productId: string; quantity: number; scrapPercent: number; lineNumber: number }[]
}
export interface Cost {
  totalCost: number
  unitCost: number
  lineItems: {
    sku: string
    depth: number
    unitCost: number
    extendedCost: number
    effectiveQuantity: number
    costSource: string
    parentLineItemId: string | null
  }[]
}

export const createBom = (core: Core, body: Record<string, unknown>) =>
  ok<Bom>(core, 'POST', '/api/v1/bom', { name: 'BOM', ...body })
export const activate = (core: Core, id: string) => ok<Bom>(core, 'POST', `/api/v1/bom/${id}/activate`)
export const costAt = (core: Core, id: string, asOfDate: string) =>
  ok<Cost>(core, 'GET', `/api/v1/bom/${id}/cost?asOfDate=${encodeURIComponent(asOfDate)}`)
export const line = (productId: string, quantity: number, scrapPercent = 0) => ({
  productId,
  quantity,
  scrapPercent,
})

/** Bike (batch of 2) <- 4 Wheel + 2 Frame; Wheel <- Hub + 32 Spoke (12.5% scrap) + Rim; Hub <- 2 Bearing. */
export async function bikeFactory(core: Core) {
  const p = async (name: string, type = 'RawMaterial') =>
    createProduct(core, { name, type, sku: `${name}-${randomUUID().slice(0, 6)}` })
  const [bike, wheel, hub, bearing, spoke, rim, frame] = await Promise.all([
    p('Bike', 'FinishedGood'),
    p('Wheel', 'Component'),
    p('Hub', 'Component'),
    p('Bearing'),
    p('Spoke'),
    p('Rim'),
    p('Frame'),
  ])
  for (const [product, qty, cost] of [
    [bearing, 10, 3],
    [spoke, 100, 0.5],
    [rim, 10, 20],
    [frame, 10, 100],
  ] as const)
    await receive(core, product!.id, qty, cost, '2026-01-01T00:00:00Z')
  await receive(core, bearing!.id, 10, 5, '2026-02-01T00:00:00Z') // average 4
  await receive(core, spoke!.id, 100, 1, '2026-02-01T00:00:00Z') // average 0.75
  const hubBom = await createBom(core, { productId: hub!.id, lineItems: [line(bearing!.id, 2)] })
  const wheelBom = await createBom(core, {
    productId: wheel!.id,
    lineItems: [line(hub!.id, 1), line(spoke!.id, 32, 12.5), line(rim!.id, 1)],
  })
  const bikeBom = await createBom(core, {
    productId: bike!.id,
    outputQuantity: 2,
    lineItems: [line(wheel!.id, 4), line(frame!.id, 2)],
  })
  for (const bom of [hubBom, wheelBom, bikeBom]) await activate(core, bom.id)
  return {
    bike: bike!,
    wheel: wheel!,
    hub: hub!,
    bearing: bearing!,
    spoke: spoke!,
    bikeBom,
    hubBom,
    wheelBom,
  }
}
