import { describe, expect, it } from 'vitest'
import { addBusiness, useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { createProduct } from '../../manufacturing/manufacturing.fixtures.js'
import { call, createSupplier, purchasingSetup } from '../purchasing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('suppliers in the SQL console', () => {
  it("shows the business's live suppliers and their terms, nobody else's", async () => {
    const { core, org } = await purchasingSetup(ctx)
    const live = await createSupplier(core, { name: 'Live', paymentTerms: 'Net15' })
    const gone = await createSupplier(core, { name: 'Gone' })
    const product = await createProduct(core, { sku: 'ROD' })
    await call(core, 'PUT', `/api/v1/suppliers/${live.id}/products/${product.id}`, {
      unitCost: 1.25,
      isPreferred: true,
    })
    await call(core, 'PUT', `/api/v1/suppliers/${gone.id}/products/${product.id}`, { unitCost: 9 })
    await call(core, 'DELETE', `/api/v1/suppliers/${gone.id}`)
    const other = await purchasingSetup(ctx, 'another')
    await createSupplier(other.core, { name: 'Other organisation' })
    const second = await addBusiness(ctx, org.businessId)
    await createSupplier(core, { name: 'Other business' }) // in the first business: must stay out of the second
    const query = (text: string, headers: Record<string, string> = {}) =>
      core({ method: 'POST', url: '/api/ai-studio/query', payload: { query: text }, headers })

    const suppliers = await query('SELECT name, payment_terms, currency FROM suppliers ORDER BY name')
    expect(suppliers.statusCode, suppliers.body).toBe(200)
    expect(suppliers.json().data.rows).toEqual([
      ['Live', 'Net15', 'EUR'],
      ['Other business', 'Net60', 'EUR'],
    ])
    const terms = await query(
      'SELECT s.name, p.sku, t.unit_cost, t.is_preferred FROM supplier_products t JOIN suppliers s ON s.id = t.supplier_id JOIN products p ON p.id = t.product_id',
    )
    expect(terms.json().data.rows).toEqual([['Live', 'ROD', '1.250000', true]])
    const inSecond = await query('SELECT count(*) AS n FROM suppliers', { 'x-business-id': second })
    expect(inSecond.json().data.rows).toEqual([[0]])
    const hidden = await query('SELECT notes FROM suppliers')
    expect(hidden.statusCode).toBe(400)
  })
})
