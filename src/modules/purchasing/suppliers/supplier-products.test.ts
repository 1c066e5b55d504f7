import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { addBusiness, fieldsOf, schemaOf, useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct } from '../../manufacturing/manufacturing.fixtures.js'
import { call, createSupplier, purchasingSetup } from '../purchasing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

interface Terms {
  supplierId: string
  productId: string
  isPreferred: boolean
  unitCost: number
  leadTimeDays: number | null
  effectiveLeadTimeDays: number
}

const termsUrl = (supplierId: string, productId?: string) =>
  `/api/v1/suppliers/${supplierId}/products${productId ? `/${productId}` : ''}`

describe('supplier product terms', () => {
  it('upserts, lists, reads and removes terms; one preferred supplier per product', async () => {
    const { core, key } = await purchasingSetup(ctx)
    const a = await createSupplier(core, { name: 'A', leadTimeDays: 10 })
    const b = await createSupplier(core, { name: 'B', leadTimeDays: 4 })
    const rod = await createProduct(core, { sku: 'ROD', name: 'Steel rod' })
    const bolt = await createProduct(core, { sku: 'BOLT', name: 'Bolt' })

    const first = await call<Terms>(core, 'PUT', termsUrl(a.id, rod.id), {
      supplierSku: ' A-ROD-1 ',
      unitCost: 2.123456,
      minimumOrderQuantity: 50,
      isPreferred: true,
    })
    expect(first).toMatchObject({
      supplierId: a.id,
      productId: rod.id,
      productSku: 'ROD',
      productName: 'Steel rod',
      supplierSku: 'A-ROD-1',
      unitCost: 2.123456,
      currency: 'EUR',
      minimumOrderQuantity: 50,
      leadTimeDays: null,
      effectiveLeadTimeDays: 10,
      isPreferred: true,
    })
    // Replacing keeps one row; leadTimeDays of the product overrides the supplier's.
    const replaced = await call<Terms>(key, 'PUT', termsUrl(a.id, rod.id), {
      unitCost: 2,
      leadTimeDays: 3,
      isPreferred: true,
    })
    expect(replaced).toMatchObject({
      unitCost: 2,
      leadTimeDays: 3,
      effectiveLeadTimeDays: 3,
      supplierSku: null,
    })
    await call(core, 'PUT', termsUrl(a.id, bolt.id), { unitCost: 0.1 })

    // B becomes preferred for the rod: A stops being preferred.
    await call(core, 'PUT', termsUrl(b.id, rod.id), { unitCost: 1.9, isPreferred: true })
    expect((await call<Terms>(core, 'GET', termsUrl(a.id, rod.id))).isPreferred).toBe(false)
    expect((await call<Terms>(core, 'GET', termsUrl(b.id, rod.id))).isPreferred).toBe(true)

    const list = (await core({ url: termsUrl(a.id) })).json()
    expect(list.data.map((t: { productSku: string }) => t.productSku)).toEqual(['BOLT', 'ROD'])
    expect(list.totalCount).toBe(2)
    const skus = async (query: string) =>
      (await call<{ productSku: string }[]>(core, 'GET', `${termsUrl(a.id)}?${query}`)).map(
        (t) => t.productSku,
      )
    expect(await skus('$filter=unitCost gt 1')).toEqual(['ROD'])
    expect(await skus('$orderby=unitCost desc')).toEqual(['ROD', 'BOLT'])
    expect(await skus('$search=bol')).toEqual(['BOLT'])
    expect(await skus(`$filter=productId eq ${bolt.id}`)).toEqual(['BOLT'])

    expect(await call(core, 'DELETE', termsUrl(b.id, rod.id))).toBe(true)
    const gone = await core({ url: termsUrl(b.id, rod.id) })
    expect({ status: gone.statusCode, code: gone.json().code }).toEqual({
      status: 404,
      code: 'supplier_product_not_found',
    })
    const again = await core({ method: 'DELETE', url: termsUrl(b.id, rod.id) })
    expect(again.json().code).toBe('supplier_product_not_found')

    // Deactivating a supplier clears its preferred flags; an inactive supplier cannot be made preferred.
    await call(core, 'PUT', termsUrl(a.id, rod.id), { unitCost: 2, isPreferred: true })
    await call(core, 'PUT', `/api/v1/suppliers/${a.id}`, { name: 'A', isActive: false })
    expect((await call<Terms>(core, 'GET', termsUrl(a.id, rod.id))).isPreferred).toBe(false)
    const inactive = await core({
      method: 'PUT',
      url: termsUrl(a.id, rod.id),
      payload: { unitCost: 2, isPreferred: true },
    })
    expect({ status: inactive.statusCode, code: inactive.json().code }).toEqual({
      status: 409,
      code: 'supplier_inactive',
    })
    expect(
      (await core({ method: 'PUT', url: termsUrl(a.id, rod.id), payload: { unitCost: 3 } })).statusCode,
    ).toBe(200)

    // Deleting a supplier removes its terms; its routes answer 404.
    await call(core, 'PUT', termsUrl(b.id, bolt.id), { unitCost: 1, isPreferred: true })
    await call(core, 'DELETE', `/api/v1/suppliers/${b.id}`)
    const deleted = await core({ url: termsUrl(b.id) })
    expect({ status: deleted.statusCode, code: deleted.json().code }).toEqual({
      status: 404,
      code: 'supplier_not_found',
    })
    const c = await createSupplier(core, { name: 'C' })
    expect(
      (await call<Terms>(core, 'PUT', termsUrl(c.id, bolt.id), { unitCost: 1, isPreferred: true }))
        .isPreferred,
    ).toBe(true)
  })

  it('refuses bad terms with a 400 naming the field', async () => {
    const { core } = await purchasingSetup(ctx)
    const supplier = await createSupplier(core)
    const product = await createProduct(core)
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['unitCost']],
      [{ unitCost: -1 }, ['unitCost']],
      [{ unitCost: 1e10 }, ['unitCost']],
      [{ unitCost: 1.1234567 }, ['unitCost']],
      [{ unitCost: '1' }, ['unitCost']],
      [{ unitCost: 1, minimumOrderQuantity: 1.12345 }, ['minimumOrderQuantity']],
      [{ unitCost: 1, minimumOrderQuantity: -2 }, ['minimumOrderQuantity']],
      [{ unitCost: 1, leadTimeDays: -1 }, ['leadTimeDays']],
      [{ unitCost: 1, leadTimeDays: 99999 }, ['leadTimeDays']],
      [{ unitCost: 1, supplierSku: 's'.repeat(101) }, ['supplierSku']],
      [{ unitCost: 1, supplierSku: 'a\u0000' }, ['supplierSku']],
      [{ unitCost: 1, isPreferred: 'yes' }, ['isPreferred']],
    ]
    for (const [payload, fields] of cases) {
      const response = await core({ method: 'PUT', url: termsUrl(supplier.id, product.id), payload })
      expect({ payload, status: response.statusCode }).toEqual({ payload, status: 400 })
      expect(fieldsOf(response)).toEqual(fields)
    }
    const badId = await core({ method: 'PUT', url: termsUrl(supplier.id, 'nope'), payload: { unitCost: 1 } })
    expect(fieldsOf(badId)).toEqual(['productId'])
    expect(fieldsOf(await core({ url: `${termsUrl(supplier.id)}?$filter=price gt 1` }))).toEqual(['$filter'])
  })

  it('answers 401, 403 per permission level, and 404 for another organisation or business', async () => {
    const owner = await purchasingSetup(ctx)
    const supplier = await createSupplier(owner.core)
    const product = await createProduct(owner.core)
    await call(owner.core, 'PUT', termsUrl(supplier.id, product.id), { unitCost: 1 })
    await expectAccess(ctx, owner, 'Suppliers', 1, [
      { method: 'GET', url: termsUrl(supplier.id) },
      { method: 'GET', url: termsUrl(supplier.id, product.id) },
    ])
    await expectAccess(ctx, owner, 'Suppliers', 2, [
      { method: 'PUT', url: termsUrl(supplier.id, product.id), payload: { unitCost: 2 } },
    ])
    await expectAccess(ctx, owner, 'Suppliers', 4, [
      { method: 'DELETE', url: termsUrl(supplier.id, product.id) },
    ])

    const other = await purchasingSetup(ctx, 'another')
    const otherSupplier = await createSupplier(other.core)
    const otherProduct = await createProduct(other.core)
    const secondBusiness = await addBusiness(ctx, owner.org.businessId)
    const expect404 = async (
      label: string,
      response: { statusCode: number; json(): { code?: string } },
      code: string,
    ) =>
      expect({ label, status: response.statusCode, code: response.json().code }).toEqual({
        label,
        status: 404,
        code,
      })
    // Another organisation's supplier, or this supplier seen from another business.
    for (const request of [
      { url: termsUrl(supplier.id) },
      { url: termsUrl(supplier.id, product.id) },
      { method: 'PUT' as const, url: termsUrl(supplier.id, product.id), payload: { unitCost: 1 } },
      { method: 'DELETE' as const, url: termsUrl(supplier.id, product.id) },
    ]) {
      await expect404(`other organisation ${request.url}`, await other.core(request), 'supplier_not_found')
      await expect404(
        `other business ${request.url}`,
        await owner.core({ ...request, headers: { 'x-business-id': secondBusiness } }),
        'supplier_not_found',
      )
    }
    // This supplier with another organisation's product, or an unknown one.
    for (const productId of [otherProduct.id, randomUUID()]) {
      await expect404(
        'foreign product',
        await owner.core({ method: 'PUT', url: termsUrl(supplier.id, productId), payload: { unitCost: 1 } }),
        'product_not_found',
      )
      await expect404(
        'foreign product delete',
        await owner.core({ method: 'DELETE', url: termsUrl(supplier.id, productId) }),
        'product_not_found',
      )
    }
    await expect404(
      'foreign supplier',
      await owner.core({ url: termsUrl(otherSupplier.id) }),
      'supplier_not_found',
    )
  })

  it.skipIf(!testDatabaseUrl())(
    'leaves exactly one preferred supplier when many set it for one product at once (PostgreSQL)',
    async () => {
      const { core, org } = await purchasingSetup(ctx)
      const product = await createProduct(core)
      const suppliers = await Promise.all(
        Array.from({ length: 3 }, (_, i) => createSupplier(core, { name: `S${i}` })),
      )
      for (const supplier of suppliers.slice(0, 2))
        await call(core, 'PUT', termsUrl(supplier.id, product.id), {
          unitCost: 1,
          isPreferred: supplier === suppliers[0],
        })
      const schema = await schemaOf(ctx, org.businessId)
      // Hold the product's row as a concurrent stock posting would, so every request is in flight
      // (past validation, inside its transaction) before any of them can go on. Three, so that the
      // test pool's connections suffice for them, the holder and the watcher.
      const holder = await ctx.database.db.startTransaction().execute()
      let responses: Promise<{ statusCode: number }[]> | undefined
      try {
        await sql`UPDATE ${sql.table(`${schema}.products`)} SET date_modified = date_modified WHERE id = ${product.id}`.execute(
          holder,
        )
        responses = Promise.all(
          suppliers.map((supplier) =>
            core({
              method: 'PUT',
              url: termsUrl(supplier.id, product.id),
              payload: { unitCost: 2, isPreferred: true },
            }),
          ),
        )
        for (let i = 0; ; i++) {
          const { rows } = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%products%'`.execute(
            ctx.database.db,
          )
          if ((rows[0]?.n ?? 0) >= suppliers.length) break
          if (i > 500) throw new Error('the requests never all waited for the product row')
          await sleep(10)
        }
        await holder.commit().execute()
      } finally {
        if (!holder.isCommitted) await holder.rollback().execute()
      }
      expect((await responses).map((r) => r.statusCode)).toEqual(suppliers.map(() => 200))
      const { rows } = await sql<{ supplier_id: string }>`
        SELECT supplier_id FROM ${sql.table(`${schema}.supplier_products`)}
        WHERE product_id = ${product.id} AND is_preferred`.execute(ctx.database.db)
      expect(rows).toHaveLength(1)
      const preferred = await Promise.all(
        suppliers.map(async (s) => (await call<Terms>(core, 'GET', termsUrl(s.id, product.id))).isPreferred),
      )
      expect(preferred.filter(Boolean)).toHaveLength(1)
    },
  )
})
