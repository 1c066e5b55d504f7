import { describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { createProduct, ok, receive } from '../manufacturing.fixtures.js'
import { activate, createBom, line } from './boms.fixtures.js'

const ctx = useTestContext()

interface CostLine {
  productId: string
  depth: number
  unitCost: number
  extendedCost: number
  costSource: string
  costMissing: boolean
}
interface CostAnswer {
  data: { totalCost: number; costMissing: boolean; asOfDate: string; lineItems: CostLine[] }
  messages: { title: string; message: string; level: string; icon: string; code: string }[]
}

const costOf = async (core: Awaited<ReturnType<typeof ownerSession>>['core'], bomId: string) => {
  const response = await core({ url: `/api/v1/bom/${bomId}/cost` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as CostAnswer
}

describe('BOM cost of a component without any cost', () => {
  it('costs it at 0 and says so in its line, every sub-assembly line above it, the answer and its messages', async () => {
    const { core } = await ownerSession(ctx)
    const glue = await createProduct(core, { name: 'Glue', sku: `GLUE-${Date.now()}` }) // no ledger, no unitCost
    const board = await createProduct(core, { name: 'Board', unitCost: 12.5 }) // standard cost only
    const screw = await createProduct(core, { name: 'Screw' })
    await receive(core, screw.id, 100, 0.2, '2026-01-01T00:00:00Z')
    const panel = await createProduct(core, { name: 'Panel', type: 'Component' })
    const shelf = await createProduct(core, { name: 'Shelf', type: 'FinishedGood' })
    const panelBom = await createBom(core, {
      productId: panel.id,
      lineItems: [line(board.id, 1), line(glue.id, 0.1)],
    })
    await activate(core, panelBom.id)
    const shelfBom = await createBom(core, {
      productId: shelf.id,
      lineItems: [line(panel.id, 2), line(screw.id, 8), line(glue.id, 0.05)],
    })

    const { data, messages } = await costOf(core, shelfBom.id)
    // Panel 12.5 + glue 0; shelf 2 × 12.5 + 8 × 0.2 + glue 0 = 26.6.
    expect(data.totalCost).toBeCloseTo(26.6, 4)
    expect(data.costMissing).toBe(true)
    const lines = data.lineItems.map((l) => [
      l.depth,
      l.productId,
      l.costSource,
      l.costMissing,
      l.extendedCost,
    ])
    expect(lines).toEqual([
      [1, panel.id, 'SubAssembly', true, 25],
      [2, board.id, 'StandardCost', false, 12.5],
      [2, glue.id, 'None', true, 0],
      [1, screw.id, 'Ledger', false, 1.6],
      [1, glue.id, 'None', true, 0],
    ])
    // One warning for the glue, on two lines; none for the board with a standard cost.
    expect(messages).toEqual([
      {
        title: 'No cost for a component',
        message: expect.stringContaining(`Glue (${glue.sku}) has no cost as of ${data.asOfDate}`),
        level: 'Warning',
        icon: 'warning',
        code: 'cost_missing',
      },
    ])
    expect(messages[0]?.message).toContain('Its 2 lines are costed at 0')

    // Once the glue is received, the same BOM is fully costed and says nothing.
    await receive(core, glue.id, 10, 4)
    const costed = await costOf(core, shelfBom.id)
    expect(costed.messages).toEqual([])
    expect(costed.data.costMissing).toBe(false)
    expect(costed.data.lineItems.every((l) => !l.costMissing)).toBe(true)
    expect(costed.data.totalCost).toBeCloseTo(26.6 + 2 * 0.1 * 4 + 0.05 * 4, 4)
  })

  it('names a line with no cost by its single line when it appears once', async () => {
    const { core } = await ownerSession(ctx)
    const part = await createProduct(core, { name: 'Loose part' })
    const kit = await createProduct(core, { name: 'Kit', type: 'FinishedGood' })
    const bom = await ok<{ id: string }>(core, 'POST', '/api/v1/bom', {
      name: 'Kit',
      productId: kit.id,
      lineItems: [line(part.id, 3)],
    })
    const { data, messages } = await costOf(core, bom.id)
    expect(data).toMatchObject({ totalCost: 0, costMissing: true })
    expect(messages.map((m) => m.code)).toEqual(['cost_missing'])
    expect(messages[0]?.message).toContain('Its line is costed at 0')
  })
})
