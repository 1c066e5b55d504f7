import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { createProduct } from '../../manufacturing/manufacturing.fixtures.js'
import { findPurchasingSupplier, preferredSuppliers, supplierNames, termsForProducts } from '../index.js'
import { call, createSupplier, purchasingSetup } from '../purchasing.fixtures.js'

const ctx = useTestContext()

describe('what the purchasing area gives purchase orders', () => {
  it('reads a live supplier of the business, its terms and the preferred supplier per product', async () => {
    const { core, org } = await purchasingSetup(ctx)
    const schema = await schemaOf(ctx, org.businessId)
    const db = ctx.database.db
    const acme = await createSupplier(core, { name: 'Acme', leadTimeDays: 9, paymentTerms: 'Prepaid' })
    const other = await createSupplier(core, { name: 'Other' })
    const rod = await createProduct(core)
    const nut = await createProduct(core)
    const bare = await createProduct(core)
    await call(core, 'PUT', `/api/v1/suppliers/${acme.id}/products/${rod.id}`, {
      supplierSku: 'A-1',
      unitCost: 1.123456,
      minimumOrderQuantity: 5,
      isPreferred: true,
    })
    await call(core, 'PUT', `/api/v1/suppliers/${acme.id}/products/${nut.id}`, {
      unitCost: 2,
      leadTimeDays: 1,
    })
    await call(core, 'PUT', `/api/v1/suppliers/${other.id}/products/${nut.id}`, {
      unitCost: 3,
      isPreferred: true,
    })

    expect(await findPurchasingSupplier(db, schema, org.businessId, acme.id)).toEqual({
      id: acme.id,
      code: acme.code,
      name: 'Acme',
      currency: 'EUR',
      paymentTerms: 'Prepaid',
      leadTimeDays: 9,
      isActive: true,
    })
    expect(await findPurchasingSupplier(db, schema, org.businessId, randomUUID())).toBeUndefined()
    expect(await findPurchasingSupplier(db, schema, randomUUID(), acme.id)).toBeUndefined()

    const terms = await termsForProducts(db, schema, org.businessId, acme.id, [rod.id, nut.id, bare.id])
    expect(terms.get(rod.id)).toEqual({
      supplierId: acme.id,
      productId: rod.id,
      supplierSku: 'A-1',
      unitCost: '1.123456',
      minimumOrderQuantity: '5.0000',
      leadTimeDays: 9,
      isPreferred: true,
    })
    expect(terms.get(nut.id)).toMatchObject({ unitCost: '2.000000', leadTimeDays: 1, isPreferred: false })
    expect(terms.has(bare.id)).toBe(false)

    const preferred = await preferredSuppliers(db, schema, org.businessId, [rod.id, nut.id, bare.id])
    expect(preferred.get(rod.id)).toMatchObject({ supplierId: acme.id, supplierName: 'Acme' })
    expect(preferred.get(nut.id)).toMatchObject({
      supplierId: other.id,
      supplierName: 'Other',
      unitCost: '3.000000',
    })
    expect(preferred.has(bare.id)).toBe(false)

    await call(core, 'DELETE', `/api/v1/suppliers/${acme.id}`)
    expect(await findPurchasingSupplier(db, schema, org.businessId, acme.id)).toBeUndefined()
    expect((await supplierNames(db, schema, org.businessId, [acme.id, other.id])).get(acme.id)).toEqual({
      code: acme.code,
      name: 'Acme',
      deleted: true,
    })
    expect((await preferredSuppliers(db, schema, org.businessId, [rod.id])).size).toBe(0)
  })

  it.skipIf(!testDatabaseUrl())('gives parallel creations distinct codes (PostgreSQL)', async () => {
    const { core } = await purchasingSetup(ctx)
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createSupplier(core, { name: `P${i}` })),
    )
    expect(new Set(created.map((s) => s.code)).size).toBe(8)
  })
})
