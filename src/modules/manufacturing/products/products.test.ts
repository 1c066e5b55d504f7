import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  createApiKey,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../access.fixtures.js'
import { createProduct, ok, receive, sku } from '../manufacturing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('products', () => {
  it('creates, reads, lists, replaces and archives a product with both credential kinds', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const apiCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId),
    })
    const code = sku('BOLT')
    const created = await ok(owner.core, 'POST', '/api/v1/products', {
      sku: ` ${code} `,
      name: 'M8 bolt',
      type: 'component',
      unitOfMeasure: 'Box',
      barcode: '6001234567890',
      unitCost: 1.25,
      unitPrice: 2.5,
      weight: 0.05,
      weightUnit: 'kg',
      dimensions: { length: 8, width: 8, height: 40, unit: 2 },
      reorderLevel: 100,
    })
    expect(created).toMatchObject({
      businessId: owner.org.businessId,
      sku: code,
      type: 'Component',
      unitOfMeasure: 'Box',
      weightUnit: 'Kg',
      dimensions: { length: 8, width: 8, height: 40, unit: 'M' },
      reorderLevel: 100,
      active: true,
      onHand: 0,
      averageCost: 0,
      archivedAt: null,
    })
    const id = (created as { id: string }).id
    expect(await ok(apiCore, 'GET', `/api/v1/products/${id}`)).toEqual(created)

    const other = await createProduct(apiCore, { name: 'Plywood sheet', barcode: null })
    const page = await apiCore({ method: 'GET', url: `/api/v1/products?$search=${code.toLowerCase()}` })
    expect(page.json()).toMatchObject({ totalCount: 1, data: [{ id }] })
    const filtered = await owner.core({
      method: 'GET',
      url: `/api/v1/products?$filter=${encodeURIComponent("type eq 'RawMaterial'")}&$orderby=name asc`,
    })
    expect(filtered.json().data.map((p: { id: string }) => p.id)).toEqual([other.id])

    const replaced = await ok(owner.core, 'PUT', `/api/v1/products/${id}`, {
      sku: code,
      name: 'M8 bolt, zinc',
      type: 'Component',
    })
    expect(replaced).toMatchObject({
      name: 'M8 bolt, zinc',
      unitOfMeasure: 'Each',
      barcode: null,
      dimensions: null,
      reorderLevel: null,
    })

    expect(await ok(apiCore, 'DELETE', `/api/v1/products/${id}`)).toBe(true)
    const archived = await ok(owner.core, 'GET', `/api/v1/products/${id}`)
    expect(archived).toMatchObject({ active: false, archivedAt: expect.any(String) })
    const active = await owner.core({ method: 'GET', url: '/api/v1/products?$filter=active eq true' })
    expect(active.json().data.map((p: { id: string }) => p.id)).toEqual([other.id])
  })

  it('refuses a SKU already used in the business, ignoring letter case (409), but not in another organisation', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const code = sku('DUP')
    const first = await createProduct(owner.core, { sku: code })
    const clash = await owner.core({
      method: 'POST',
      url: '/api/v1/products',
      payload: { sku: code.toLowerCase(), name: 'x', type: 'Component' },
    })
    expect(clash.statusCode).toBe(409)
    expect(clash.json().code).toBe('sku_taken')
    const second = await createProduct(owner.core)
    const rename = await owner.core({
      method: 'PUT',
      url: `/api/v1/products/${second.id}`,
      payload: { sku: code, name: 'x', type: 'Component' },
    })
    expect(rename.json().code).toBe('sku_taken')
    const stranger = await sharedOrganisation(ctx, 'another')
    expect((await createProduct(stranger.core, { sku: code })).sku).toBe(code)
    expect(first.sku).toBe(code)
  })

  it('keeps a product with stock history from becoming a Service (409)', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const product = await createProduct(owner.core)
    const body = { sku: product.sku, name: 'x', type: 'Service' }
    expect(await ok(owner.core, 'PUT', `/api/v1/products/${product.id}`, body)).toMatchObject({
      type: 'Service',
    })
    await ok(owner.core, 'PUT', `/api/v1/products/${product.id}`, { ...body, type: 'RawMaterial' })
    await receive(owner.core, product.id, 1, 1)
    const locked = await owner.core({ method: 'PUT', url: `/api/v1/products/${product.id}`, payload: body })
    expect([locked.statusCode, locked.json().code]).toEqual([409, 'product_type_locked'])
  })

  it('answers 400 naming each invalid field', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const post = (payload: Record<string, unknown>) =>
      owner.core({ method: 'POST', url: '/api/v1/products', payload })
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: 'x', type: 'Component' }, ['sku']],
      [{ sku: '  ', name: 'x', type: 'Component' }, ['sku']],
      [{ sku: 'a', name: 'x', type: 'Gadget' }, ['type']],
      [{ sku: 'a', name: 'x', type: 'Component', unitCost: -1 }, ['unitCost']],
      [{ sku: 'a', name: 'x', type: 'Component', unitPrice: 1.00001 }, ['unitPrice']],
      [{ sku: 'a', name: 'x', type: 'Component', weight: 2 }, ['weightUnit']],
      [
        {
          sku: 'a',
          name: 'x',
          type: 'Component',
          dimensions: { length: 0, width: 1, height: 1, unit: 'Cm' },
        },
        ['dimensions.length'],
      ],
      [
        {
          sku: 'a',
          name: 'x',
          type: 'Component',
          dimensions: { length: 1, width: 1, height: 1, unit: 'Yd' },
        },
        ['dimensions.unit'],
      ],
    ]
    for (const [payload, fields] of cases) {
      const response = await post(payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(fieldsOf(response), JSON.stringify(payload)).toEqual(fields)
    }
    const badId = await owner.core({ method: 'GET', url: '/api/v1/products/not-a-uuid' })
    expect(fieldsOf(badId)).toEqual(['productId'])
  })

  it("gives 404 for another organisation's product and for unknown ids", async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const stranger = await sharedOrganisation(ctx, 'another')
    const theirs = await createProduct(stranger.core)
    for (const id of [theirs.id, randomUUID()]) {
      for (const [method, payload] of [
        ['GET'],
        ['PUT', { sku: 'x', name: 'x', type: 'Component' }],
        ['DELETE'],
      ] as const) {
        const response = await owner.core({
          method,
          url: `/api/v1/products/${id}`,
          ...(payload ? { payload } : {}),
        })
        expect([response.statusCode, response.json().code]).toEqual([404, 'product_not_found'])
      }
    }
    expect(
      ((await ok(stranger.core, 'GET', `/api/v1/products/${theirs.id}`)) as { active: boolean }).active,
    ).toBe(true)
  })

  it('needs Products View to read, Modify to write and Delete to archive', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const product = await createProduct(owner.core)
    const body = { sku: sku(), name: 'x', type: 'Component' }
    await expectAccess(ctx, owner, 'Products', 1, [
      { method: 'GET', url: '/api/v1/products' },
      { method: 'GET', url: `/api/v1/products/${product.id}` },
    ])
    await expectAccess(ctx, owner, 'Products', 2, [
      { method: 'POST', url: '/api/v1/products', payload: body },
      { method: 'PUT', url: `/api/v1/products/${product.id}`, payload: { ...body, sku: sku() } },
    ])
    await expectAccess(ctx, owner, 'Products', 4, [
      { method: 'DELETE', url: `/api/v1/products/${product.id}` },
    ])
  })
})
