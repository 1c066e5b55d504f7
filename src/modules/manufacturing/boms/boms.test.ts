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
import { createProduct, ok } from '../manufacturing.fixtures.js'
import { activate, type Bom, createBom, line } from './boms.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('BOM lifecycle', () => {
  it('creates, edits lines of a Draft, lists, and refuses changes to Active or Archived BOMs (409)', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const apiCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId),
    })
    const [made, a, b] = await Promise.all([
      createProduct(apiCore, { type: 'FinishedGood' }),
      createProduct(apiCore),
      createProduct(apiCore),
    ])
    const bom = await createBom(apiCore, { productId: made.id, name: 'Table', lineItems: [line(a.id, 4)] })
    expect(bom).toMatchObject({
      code: expect.stringMatching(/^BOM-\d{6}$/),
      revision: 1,
      status: 'Draft',
      outputQuantity: 1,
      product: { id: made.id, sku: made.sku },
    })
    const added = await ok<Bom>(owner.core, 'POST', `/api/v1/bom/${bom.id}/line-items`, {
      productId: b.id,
      quantity: 0.25,
      scrapPercent: 10,
      notes: 'glue',
    })
    expect(added.lineItems.map((l) => [l.lineNumber, l.productId, l.quantity, l.scrapPercent])).toEqual([
      [1, a.id, 4, 0],
      [2, b.id, 0.25, 10],
    ])
    const removed = await ok<Bom>(
      apiCore,
      'DELETE',
      `/api/v1/bom/${bom.id}/line-items/${added.lineItems[0]!.id}`,
    )
    expect(removed.lineItems.map((l) => l.productId)).toEqual([b.id])
    const updated = await ok<Bom>(owner.core, 'PUT', `/api/v1/bom/${bom.id}`, {
      name: 'Table v1',
      outputQuantity: 2,
      lineItems: [line(a.id, 1)],
    })
    expect(updated).toMatchObject({
      name: 'Table v1',
      outputQuantity: 2,
      lineItems: [{ productId: a.id, lineNumber: 1 }],
    })
    const listed = await apiCore({
      method: 'GET',
      url: `/api/v1/bom?$filter=${encodeURIComponent(`productId eq ${made.id}`)}`,
    })
    expect(listed.json()).toMatchObject({ totalCount: 1, data: [{ id: bom.id }] })

    await activate(owner.core, bom.id)
    const again = await owner.core({ method: 'POST', url: `/api/v1/bom/${bom.id}/activate` })
    expect([again.statusCode, again.json().code]).toEqual([409, 'invalid_status_transition'])
    for (const call of [
      { method: 'PUT' as const, url: `/api/v1/bom/${bom.id}`, payload: { name: 'x' } },
      { method: 'POST' as const, url: `/api/v1/bom/${bom.id}/line-items`, payload: line(b.id, 1) },
      {
        method: 'PUT' as const,
        url: `/api/v1/bom/${bom.id}/line-items/${updated.lineItems[0]!.id}`,
        payload: line(b.id, 1),
      },
      { method: 'DELETE' as const, url: `/api/v1/bom/${bom.id}/line-items/${updated.lineItems[0]!.id}` },
    ]) {
      const response = await owner.core(call)
      expect([response.statusCode, response.json().code], call.url).toEqual([409, 'bom_not_editable'])
    }
    const active = await owner.core({ method: 'DELETE', url: `/api/v1/bom/${bom.id}` })
    expect([active.statusCode, active.json().code]).toEqual([409, 'bom_active'])
    const rev = await ok<Bom>(owner.core, 'POST', `/api/v1/bom/${bom.id}/revise`)
    await activate(owner.core, rev.id)
    expect(await ok(owner.core, 'DELETE', `/api/v1/bom/${bom.id}`)).toBe(true)
    expect((await owner.core({ method: 'GET', url: `/api/v1/bom/${bom.id}` })).statusCode).toBe(404)
  })

  it('answers 400 naming each invalid field and 404 for foreign BOMs, lines and products', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const stranger = await sharedOrganisation(ctx, 'another')
    const [made, part, service, theirs] = await Promise.all([
      createProduct(owner.core),
      createProduct(owner.core),
      createProduct(owner.core, { type: 'Service' }),
      createProduct(stranger.core),
    ])
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: 'x' }, ['productId']],
      [{ productId: theirs.id, name: 'x' }, ['productId']],
      [{ productId: service.id, name: 'x' }, ['productId']],
      [{ productId: made.id, name: 'x', outputQuantity: 0 }, ['outputQuantity']],
      [{ productId: made.id, name: 'x', lineItems: [line(part.id, 0)] }, ['lineItems.0.quantity']],
      [{ productId: made.id, name: 'x', lineItems: [line(part.id, 1, 100)] }, ['lineItems.0.scrapPercent']],
      [
        {
          productId: made.id,
          name: 'x',
          lineItems: [line(part.id, 1), line(theirs.id, 1), line(service.id, 1)],
        },
        ['lineItems.1.productId', 'lineItems.2.productId'],
      ],
    ]
    for (const [payload, fields] of cases) {
      const response = await owner.core({ method: 'POST', url: '/api/v1/bom', payload })
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(fieldsOf(response), JSON.stringify(payload)).toEqual(fields)
    }
    const bom = await createBom(owner.core, { productId: made.id, lineItems: [line(part.id, 1)] })
    const lineId = bom.lineItems[0]!.id
    for (const id of [bom.id, randomUUID()]) {
      for (const call of [
        { method: 'GET' as const, url: `/api/v1/bom/${id}` },
        { method: 'GET' as const, url: `/api/v1/bom/${id}/cost` },
        { method: 'PUT' as const, url: `/api/v1/bom/${id}`, payload: { name: 'x' } },
        { method: 'DELETE' as const, url: `/api/v1/bom/${id}` },
        { method: 'POST' as const, url: `/api/v1/bom/${id}/activate` },
        { method: 'POST' as const, url: `/api/v1/bom/${id}/revise` },
        { method: 'POST' as const, url: `/api/v1/bom/${id}/line-items`, payload: line(theirs.id, 1) },
        { method: 'DELETE' as const, url: `/api/v1/bom/${id}/line-items/${lineId}` },
      ]) {
        const response = await stranger.core(call)
        expect([response.statusCode, response.json().code], `${call.method} ${call.url}`).toEqual([
          404,
          'bom_not_found',
        ])
      }
    }
    const missingLine = await owner.core({
      method: 'DELETE',
      url: `/api/v1/bom/${bom.id}/line-items/${randomUUID()}`,
    })
    expect([missingLine.statusCode, missingLine.json().code]).toEqual([404, 'bom_line_not_found'])
    const badDate = await owner.core({ method: 'GET', url: `/api/v1/bom/${bom.id}/cost?asOfDate=later` })
    expect(fieldsOf(badDate)).toEqual(['asOfDate'])
  })

  it('needs Products View to read, Modify to change and Delete to delete', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const [made, part] = await Promise.all([createProduct(owner.core), createProduct(owner.core)])
    const bom = await createBom(owner.core, { productId: made.id, lineItems: [line(part.id, 1)] })
    await expectAccess(ctx, owner, 'Products', 1, [
      { method: 'GET', url: '/api/v1/bom' },
      { method: 'GET', url: `/api/v1/bom/${bom.id}` },
      { method: 'GET', url: `/api/v1/bom/${bom.id}/cost` },
    ])
    await expectAccess(ctx, owner, 'Products', 2, [
      { method: 'POST', url: '/api/v1/bom', payload: { productId: made.id, name: 'x' } },
      { method: 'PUT', url: `/api/v1/bom/${bom.id}`, payload: { name: 'y' } },
      { method: 'POST', url: `/api/v1/bom/${bom.id}/line-items`, payload: line(part.id, 2) },
      {
        method: 'PUT',
        url: `/api/v1/bom/${bom.id}/line-items/${bom.lineItems[0]!.id}`,
        payload: line(part.id, 3),
      },
      { method: 'POST', url: `/api/v1/bom/${bom.id}/revise` },
      { method: 'POST', url: `/api/v1/bom/${bom.id}/activate` },
    ])
    const draft = await createBom(owner.core, { productId: made.id })
    await expectAccess(ctx, owner, 'Products', 4, [{ method: 'DELETE', url: `/api/v1/bom/${draft.id}` }])
  })
})
