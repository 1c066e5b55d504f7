import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../test/fixtures.js'
import { type Core, ownerSession, useTestContext } from '../../../test/harness.js'
import { activate, createBom, line } from './boms/boms.fixtures.js'
import { createProduct, ok, receive, stockOf } from './manufacturing.fixtures.js'

const ctx = useTestContext()

/** A business in Johannesburg (UTC+2, no daylight saving) with one product received either side of local midnight. */
async function johannesburgStock() {
  const { core, org } = await ownerSession(ctx)
  const moved = await core({
    method: 'PUT',
    url: `/api/business/${org.businessId}`,
    payload: { registeredName: 'Karoo Mills', displayName: 'Karoo Mills', timezone: 'Africa/Johannesburg' },
  })
  expect(moved.statusCode, moved.body).toBe(200)
  const flour = await createProduct(core, { name: 'Flour' })
  await receive(core, flour.id, 10, 2, '2026-03-10T21:30:00Z') // 23:30 on the 10th in Johannesburg
  await receive(core, flour.id, 10, 4, '2026-03-10T22:30:00Z') // 00:30 on the 11th there
  return { core, flour }
}

const bomCost = (core: Core, id: string, asOfDate: string) =>
  core({ url: `/api/v1/bom/${id}/cost?asOfDate=${encodeURIComponent(asOfDate)}` })

describe('asOfDate on the stock and BOM cost reads', () => {
  it("takes a date as the end of that day in the business's time zone, and a date-time as it is", async () => {
    const { core, flour } = await johannesburgStock()
    // The 10th ends at 22:00 UTC in Johannesburg: the first receipt only.
    expect(await stockOf(core, flour.id, '2026-03-10')).toEqual({
      productId: flour.id,
      asOfDate: '2026-03-10T21:59:59.999Z',
      onHand: 10,
      unitCost: 2,
      value: 20,
    })
    expect(await stockOf(core, flour.id, '2026-03-11')).toMatchObject({ onHand: 20, unitCost: 3 })
    expect(await stockOf(core, flour.id, '2026-03-09')).toMatchObject({ onHand: 0 })
    // A date-time is an instant; without an offset it is UTC.
    expect(await stockOf(core, flour.id, '2026-03-10T22:00:00Z')).toMatchObject({ onHand: 10 })
    expect(await stockOf(core, flour.id, '2026-03-10T23:00:00')).toMatchObject({
      asOfDate: '2026-03-10T23:00:00.000Z',
      onHand: 20,
    })
    expect(await stockOf(core, flour.id, '2026-03-11T00:30:00+02:00')).toMatchObject({ onHand: 20 })

    const loaf = await createProduct(core, { name: 'Loaf', type: 'FinishedGood' })
    const bom = await createBom(core, { productId: loaf.id, lineItems: [line(flour.id, 0.5)] })
    await activate(core, bom.id)
    const onTheTenth = await bomCost(core, bom.id, '2026-03-10')
    expect(onTheTenth.statusCode, onTheTenth.body).toBe(200)
    expect(onTheTenth.json().data).toMatchObject({ asOfDate: '2026-03-10T21:59:59.999Z', totalCost: 1 })
    expect((await bomCost(core, bom.id, '2026-03-11')).json().data.totalCost).toBe(1.5)
    expect((await bomCost(core, bom.id, '2026-03-10T23:00:00Z')).json().data.totalCost).toBe(1.5)
    // No asOfDate: now.
    const now = await ok<{ asOfDate: string; totalCost: number }>(core, 'GET', `/api/v1/bom/${bom.id}/cost`)
    expect(Math.abs(Date.parse(now.asOfDate) - Date.now())).toBeLessThan(60_000)
    expect(now.totalCost).toBe(1.5)
  })

  it('refuses anything else with a 400 naming asOfDate', async () => {
    const { core, flour } = await johannesburgStock()
    const loaf = await createProduct(core, { name: 'Loaf', type: 'FinishedGood' })
    const bom = await createBom(core, { productId: loaf.id, lineItems: [line(flour.id, 1)] })
    for (const bad of [
      'later',
      '2026-02-30',
      '2026-3-10',
      '20260310',
      '2026-03-10T25:00:00Z',
      '10/03/2026',
      '',
    ]) {
      for (const response of [
        await core({ url: `/api/v1/products/${flour.id}/stock?asOfDate=${encodeURIComponent(bad)}` }),
        await bomCost(core, bom.id, bad),
      ]) {
        expect(response.statusCode, `${bad}: ${response.body}`).toBe(400)
        expect(fieldsOf(response)).toEqual(['asOfDate'])
        expect(response.json().reasons[0].message).toBe('must be a valid date or date-time')
      }
    }
  })
})
