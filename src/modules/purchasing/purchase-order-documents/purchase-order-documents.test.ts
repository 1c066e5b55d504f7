import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createApiKey, useSharedOrganisation } from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import { pdfText, squeezed } from '../../../../test/pdf-text.js'
import { submittedOrder, supplierShop } from '../purchase-orders/purchase-orders.fixtures.js'
import { purchasingSetup } from '../purchasing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('purchase order document', () => {
  it('prints the supplier, the lines with their costs and the total; 404, 400, 401 and 403 as elsewhere', async () => {
    const owner = await purchasingSetup(ctx)
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    const url = `/api/v1/purchase-orders/${order.id}/document`
    const response = await owner.key({ url })
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200)
    expect(response.headers['content-type']).toBe('application/pdf')
    const text = squeezed(await pdfText(response.rawPayload))
    expect(text).toContain(`Purchase order ${order.number}`)
    expect(text.some((line) => line.startsWith('Supplier: Acme Metals (SUP-'))).toBe(true)
    expect(text).toContain('Currency: EUR')
    expect(text).toContain('Expected delivery: 2026-12-01')
    const lines = text.filter((line) => /^[12] /.test(line))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^1 \S+ Steel rod 10 4\.5 45\.00$/)
    expect(lines[1]).toMatch(/^2 \S+ Bolt 100 0\.3 30\.00$/)
    expect(text).toContain('Total EUR 75.00')

    const other = await purchasingSetup(ctx, 'another')
    expect((await other.core({ url })).json().code).toBe('purchase_order_not_found')
    expect((await owner.core({ url: `/api/v1/purchase-orders/${randomUUID()}/document` })).statusCode).toBe(
      404,
    )
    expect((await owner.core({ url: '/api/v1/purchase-orders/x/document' })).statusCode).toBe(400)
    expect((await ctx.core.inject({ url })).statusCode).toBe(401)
    const scoped = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
      scopes: JSON.stringify({ Orders: 1 }),
    })
    expect((await coreAs(ctx, { apiKey: scoped })({ url })).statusCode).toBe(403)
  })
})
