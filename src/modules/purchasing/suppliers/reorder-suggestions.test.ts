import { describe, expect, it } from 'vitest'
import { addBusiness, fieldsOf, useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct, receive } from '../../manufacturing/manufacturing.fixtures.js'
import { call, createSupplier, purchasingSetup } from '../purchasing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const URL = '/api/v1/suppliers/reorder-suggestions'

interface Suggestion {
  productSku: string
  onHand: number
  reorderLevel: number
  suggestedQuantity: number
  preferredSupplier: { id: string; name: string; currency: string } | null
  unitCost: number | null
  minimumOrderQuantity: number | null
  leadTimeDays: number | null
  estimatedCost: number | null
}

describe('reorder suggestions', () => {
  it('lists products at or below their reorder level with the preferred supplier and a quantity', async () => {
    const { core, key } = await purchasingSetup(ctx)
    const acme = await createSupplier(core, { name: 'Acme', leadTimeDays: 10, currency: 'USD' })
    const bolts = await createSupplier(core, { name: 'Bolts Inc', leadTimeDays: 5 })
    const rod = await createProduct(core, { sku: 'A-ROD', reorderLevel: 20 })
    const nut = await createProduct(core, { sku: 'B-NUT', reorderLevel: 100 })
    await createProduct(core, { sku: 'C-PLATE', reorderLevel: 10 })
    const above = await createProduct(core, { sku: 'D-ABOVE', reorderLevel: 5 })
    await createProduct(core, { sku: 'E-NOLEVEL' })
    const deleted = await createProduct(core, { sku: 'G-DELETED', reorderLevel: 5 })
    await call(core, 'DELETE', `/api/v1/products/${deleted.id}`)
    const archived = await createProduct(core, { sku: 'F-ARCHIVED', reorderLevel: 5 })
    await call(core, 'PUT', `/api/v1/products/${archived.id}`, {
      sku: 'F-ARCHIVED',
      name: 'Old',
      type: 'RawMaterial',
      reorderLevel: 5,
      active: false,
    })
    await receive(core, rod.id, 20, 1) // exactly at the level
    await receive(core, nut.id, 30.5, 1)
    await receive(core, above.id, 6, 1)
    // rod: preferred Acme with MOQ 100 (above 2*20-20 = 20); nut: preferred Bolts, own lead time.
    await call(core, 'PUT', `/api/v1/suppliers/${acme.id}/products/${rod.id}`, {
      unitCost: 1.5,
      minimumOrderQuantity: 100,
      isPreferred: true,
    })
    await call(core, 'PUT', `/api/v1/suppliers/${acme.id}/products/${nut.id}`, { unitCost: 0.5 })
    await call(core, 'PUT', `/api/v1/suppliers/${bolts.id}/products/${nut.id}`, {
      unitCost: 0.25,
      minimumOrderQuantity: 10,
      leadTimeDays: 2,
      isPreferred: true,
    })

    const page = (await key({ url: URL })).json()
    expect(page.totalCount).toBe(3)
    const [r, n, p] = page.data as Suggestion[]
    expect(r).toMatchObject({
      productSku: 'A-ROD',
      onHand: 20,
      reorderLevel: 20,
      suggestedQuantity: 100,
      preferredSupplier: { id: acme.id, name: 'Acme', currency: 'USD' },
      unitCost: 1.5,
      minimumOrderQuantity: 100,
      leadTimeDays: 10,
      estimatedCost: 150,
    })
    expect(n).toMatchObject({
      productSku: 'B-NUT',
      onHand: 30.5,
      suggestedQuantity: 169.5,
      preferredSupplier: { id: bolts.id, name: 'Bolts Inc' },
      unitCost: 0.25,
      leadTimeDays: 2,
      estimatedCost: 42.375,
    })
    expect(p).toMatchObject({
      productSku: 'C-PLATE',
      onHand: 0,
      suggestedQuantity: 20,
      preferredSupplier: null,
      unitCost: null,
      minimumOrderQuantity: null,
      leadTimeDays: null,
      estimatedCost: null,
    })

    const skus = async (query: string) =>
      (await call<Suggestion[]>(core, 'GET', `${URL}?${query}`)).map((s) => s.productSku)
    expect(await skus(`$filter=supplierId eq ${acme.id}`)).toEqual(['A-ROD'])
    expect(await skus('$filter=supplierId eq null')).toEqual(['C-PLATE'])
    expect(await skus('$orderby=onHand desc')).toEqual(['B-NUT', 'A-ROD', 'C-PLATE'])
    expect(await skus('$search=bolts')).toEqual(['B-NUT'])
    expect(await skus('PageSize=1&Page=2')).toEqual(['B-NUT'])
    expect((await core({ url: `${URL}?Page=9` })).json()).toMatchObject({ data: [], totalCount: 3, page: 9 })
    expect(fieldsOf(await core({ url: `${URL}?PageSize=0` }))).toEqual(['PageSize'])
    expect(fieldsOf(await core({ url: `${URL}?$search=${'x'.repeat(201)}` }))).toEqual(['$search'])
    const bad = await core({ url: `${URL}?$filter=suggestedQuantity gt 1` })
    expect({ status: bad.statusCode, fields: fieldsOf(bad) }).toEqual({ status: 400, fields: ['$filter'] })
  })

  it('answers 401, 403 without Suppliers View, and shows only the business its caller acts in', async () => {
    const owner = await purchasingSetup(ctx)
    await createProduct(owner.core, { reorderLevel: 1 })
    await expectAccess(ctx, owner, 'Suppliers', 1, [{ method: 'GET', url: URL }])
    const other = await purchasingSetup(ctx, 'another')
    expect((await other.core({ url: URL })).json().totalCount).toBe(0)
    const second = await addBusiness(ctx, owner.org.businessId)
    expect((await owner.core({ url: URL, headers: { 'x-business-id': second } })).json().totalCount).toBe(0)
    expect((await owner.core({ url: URL })).json().totalCount).toBe(1)
  })
})
