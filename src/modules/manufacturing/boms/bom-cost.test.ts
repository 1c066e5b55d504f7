import { describe, expect, it } from 'vitest'
import {
  businessSession,
  sharedOrganisation,
  sleep,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { ok } from '../manufacturing.fixtures.js'
import { activate, type Bom, bikeFactory, costAt, line } from './boms.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('BOM cost as of a date', () => {
  it('costs a three-level BOM at two dates (worked example)', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { bikeBom } = await bikeFactory(core)
    // Jan 15: Hub 2×3 = 6; Wheel 6 + 36×0.5 + 20 = 44; batch 4×44 + 2×100 = 376; per bike 188.
    const january = await costAt(core, bikeBom.id, '2026-01-15T00:00:00Z')
    expect(january).toMatchObject({ totalCost: 376, unitCost: 188, outputQuantity: 2 })
    expect(
      january.lineItems.map((l) => [
        l.depth,
        l.sku.split('-')[0],
        l.effectiveQuantity,
        l.unitCost,
        l.extendedCost,
        l.costSource,
      ]),
    ).toEqual([
      [1, 'Wheel', 4, 44, 176, 'SubAssembly'],
      [2, 'Hub', 1, 6, 6, 'SubAssembly'],
      [3, 'Bearing', 2, 3, 6, 'Ledger'],
      [2, 'Spoke', 36, 0.5, 18, 'Ledger'],
      [2, 'Rim', 1, 20, 20, 'Ledger'],
      [1, 'Frame', 2, 100, 200, 'Ledger'],
    ])
    // Feb 15: Hub 2×4 = 8; Wheel 8 + 36×0.75 + 20 = 55; batch 220 + 200 = 420; per bike 210.
    expect(await costAt(core, bikeBom.id, '2026-02-15T00:00:00Z')).toMatchObject({
      totalCost: 420,
      unitCost: 210,
    })
  })

  it('uses the sub-assembly revision that was active at the date, from the activation history', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { hubBom, wheelBom, bearing } = await bikeFactory(core)
    const draft = await ok<Bom>(core, 'POST', `/api/v1/bom/${hubBom.id}/revise`)
    expect(draft).toMatchObject({ code: hubBom.code, revision: 2, status: 'Draft', revisedFromId: hubBom.id })
    await ok(core, 'PUT', `/api/v1/bom/${draft.id}/line-items/${draft.lineItems[0]!.id}`, line(bearing.id, 3))
    const firstActive = (await ok<Bom>(core, 'GET', `/api/v1/bom/${hubBom.id}`)).activatedAt!
    await sleep(30)
    const between = new Date(Date.parse(firstActive) + 10).toISOString()
    await sleep(30)
    await activate(core, draft.id)
    expect(await ok<Bom>(core, 'GET', `/api/v1/bom/${hubBom.id}`)).toMatchObject({
      status: 'Archived',
      archivedAt: expect.any(String),
    })
    // Bearing average 4 from Feb on: revision 1 (2 bearings) = 8, revision 2 (3 bearings) = 12.
    const then = await costAt(core, wheelBom.id, between)
    const now = await costAt(core, wheelBom.id, new Date().toISOString())
    expect(then.lineItems[0]).toMatchObject({ unitCost: 8 })
    expect(now.lineItems[0]).toMatchObject({ unitCost: 12 })
    expect(now.totalCost).toBe(12 + 27 + 20)
  })

  it('refuses a line that would make a cycle (400 naming the path), directly or through sub-assemblies', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { hub, bike, hubBom } = await bikeFactory(core)
    const draft = await ok<Bom>(core, 'POST', `/api/v1/bom/${hubBom.id}/revise`)
    const through = await core({
      method: 'POST',
      url: `/api/v1/bom/${draft.id}/line-items`,
      payload: line(bike.id, 1),
    })
    expect(through.statusCode).toBe(400)
    expect(through.json()).toMatchObject({ code: 'bom_cycle', reasons: [{ field: 'productId' }] })
    expect(through.json().message).toContain(`${hub.sku} > ${bike.sku} > `)
    const direct = await core({
      method: 'POST',
      url: '/api/v1/bom',
      payload: { productId: hub.id, name: 'x', lineItems: [line(hub.id, 1)] },
    })
    expect(direct.json()).toMatchObject({
      code: 'bom_cycle',
      reasons: [{ field: 'lineItems.0.productId', message: `would make a cycle: ${hub.sku} > ${hub.sku}` }],
    })
  })
})
