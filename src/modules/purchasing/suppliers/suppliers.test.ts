import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { addBusiness, addMember, fieldsOf, useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { call, createSupplier, purchasingSetup, supplierBody } from '../purchasing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('suppliers', () => {
  it('creates, reads, replaces and soft-deletes with a bearer token and an API key', async () => {
    const { core, key, org } = await purchasingSetup(ctx)
    const created = await core({ method: 'POST', url: '/api/v1/suppliers', payload: supplierBody() })
    expect(created.statusCode).toBe(200)
    const supplier = created.json().data
    expect(supplier).toMatchObject({
      businessId: org.businessId,
      code: 'SUP-000001',
      name: 'Acme Steel',
      currency: 'EUR',
      paymentTerms: 'Net60',
      leadTimeDays: 7,
      taxNumber: 'DE123456789',
      address: { street: 'Hafenstrasse 1', city: 'Hamburg', country: 'Germany', postcode: null },
      remittanceAddress: null,
      metadata: { region: 'north' },
      notes: 'Ships Tuesdays',
      isActive: true,
      deletedAt: null,
    })
    // Primary first, then in the order given.
    expect(supplier.contacts.map((c: { firstName: string }) => c.firstName)).toEqual(['Bob', 'Ada'])
    expect((await key({ url: `/api/v1/suppliers/${supplier.id}` })).json().data).toEqual(supplier)

    // PUT replaces: omitted fields reset, currency/contacts/metadata kept when omitted.
    const replaced = await call(key, 'PUT', `/api/v1/suppliers/${supplier.id}`, {
      name: ' Acme Steel GmbH ',
      paymentTerms: 2,
      isActive: false,
    })
    expect(replaced).toMatchObject({
      name: 'Acme Steel GmbH',
      currency: 'EUR',
      paymentTerms: 'Net7',
      leadTimeDays: 0,
      taxNumber: null,
      address: null,
      metadata: { region: 'north' },
      isActive: false,
    })
    expect(replaced.contacts).toHaveLength(2)
    const emptied = await call(core, 'PUT', `/api/v1/suppliers/${supplier.id}`, {
      name: 'Acme',
      contacts: [],
      metadata: {},
      currency: 'usd',
    })
    expect(emptied).toMatchObject({ contacts: [], metadata: {}, currency: 'USD' })

    expect(await call(core, 'DELETE', `/api/v1/suppliers/${supplier.id}`)).toBe(true)
    expect((await core({ url: `/api/v1/suppliers/${supplier.id}` })).statusCode).toBe(404)
    const kept = await call<{ name: string; deletedAt: string | null }>(
      core,
      'GET',
      `/api/v1/suppliers/${supplier.id}?includeDeleted=true`,
    )
    expect(kept.name).toBe('Acme')
    expect(kept.deletedAt).not.toBeNull()
    for (const request of [
      { method: 'DELETE' as const, url: `/api/v1/suppliers/${supplier.id}` },
      { method: 'PUT' as const, url: `/api/v1/suppliers/${supplier.id}`, payload: { name: 'x' } },
    ]) {
      const again = await core(request)
      expect({ status: again.statusCode, code: again.json().code }).toEqual({
        status: 404,
        code: 'supplier_not_found',
      })
    }
    expect((await call<unknown[]>(core, 'GET', '/api/v1/suppliers')).length).toBe(0)
  })

  it('tells the business users about a new supplier (SupplierCreated)', async () => {
    const { core } = await purchasingSetup(ctx)
    const supplier = await createSupplier(core, { name: 'Nuts & Bolts' })
    const notes = await call<{ title: string; message: string; entityType: string; entityId: string }[]>(
      core,
      'GET',
      '/api/notifications/user',
    )
    expect(notes.find((n) => n.entityType === 'Supplier')).toMatchObject({
      title: 'Supplier added',
      message: 'Nuts & Bolts was added as a supplier.',
      entityId: supplier.id,
    })
  })

  it("defaults the currency to the business's, payment terms to Net30, lead time to 0", async () => {
    const { core } = await purchasingSetup(ctx)
    const supplier = await call(core, 'POST', '/api/v1/suppliers', { name: 'Plain' })
    const business = await call<{ currency: string }>(core, 'GET', '/api/business/my-business')
    expect(supplier).toMatchObject({
      currency: business.currency,
      paymentTerms: 'Net30',
      leadTimeDays: 0,
      contacts: [],
      metadata: {},
      isActive: true,
    })
  })

  it('lists with paging, $filter, $orderby and $search', async () => {
    const { core } = await purchasingSetup(ctx)
    await createSupplier(core, { name: 'Bolt Works', taxNumber: 'GB111', leadTimeDays: 3 })
    await createSupplier(core, { name: 'Anvil Supplies', email: 'hi@anvil.example', isActive: false })
    await createSupplier(core, { name: 'Cog & Co', currency: 'ZAR', metadata: { tier: 'gold' } })
    const list = (await core({ url: '/api/v1/suppliers?$orderby=name asc&PageSize=2' })).json()
    expect(list.data.map((s: { name: string }) => s.name)).toEqual(['Anvil Supplies', 'Bolt Works'])
    expect(list).toMatchObject({ totalCount: 3, page: 1, pageSize: 2 })
    const first = (await core({ url: '/api/v1/suppliers?PageSize=2' })).json()
    expect(first.data.map((s: { name: string }) => s.name)).toEqual(['Cog & Co', 'Anvil Supplies'])
    expect(first.totalCount).toBe(3)
    const second = (await core({ url: '/api/v1/suppliers?PageSize=2&Page=2' })).json()
    expect(second.data.map((s: { name: string }) => s.name)).toEqual(['Bolt Works'])
    const past = (await core({ url: '/api/v1/suppliers?PageSize=2&Page=9' })).json()
    expect(past).toMatchObject({ data: [], totalCount: 3, page: 9 })
    expect(fieldsOf(await core({ url: '/api/v1/suppliers?Page=99999999999' }))).toEqual(['Page'])
    const names = async (query: string) =>
      (await call<{ name: string }[]>(core, 'GET', `/api/v1/suppliers?${query}`)).map((s) => s.name)
    expect(await names('$filter=isActive eq false')).toEqual(['Anvil Supplies'])
    expect(await names("$filter=currency eq 'ZAR'")).toEqual(['Cog & Co'])
    expect(await names('$filter=leadTimeDays lt 5')).toEqual(['Bolt Works'])
    expect(await names("$filter=paymentTerms eq 'Net60' and metadata/tier eq 'gold'")).toEqual(['Cog & Co'])
    expect(await names('$search=gb11')).toEqual(['Bolt Works'])
    expect(await names('$search=ANVIL.example')).toEqual(['Anvil Supplies'])
    expect(await names('$search=SUP-000003')).toEqual(['Cog & Co'])
    expect(await names('$search=%25')).toEqual([])
    const bad = await core({ url: '/api/v1/suppliers?$filter=colour eq 1' })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad)).toEqual(['$filter'])
    expect(fieldsOf(await core({ url: '/api/v1/suppliers?$orderby=nope' }))).toEqual(['$orderby'])
    expect(fieldsOf(await core({ url: '/api/v1/suppliers?PageSize=101' }))).toEqual(['PageSize'])
  })

  it('refuses bad input with a 400 naming each field', async () => {
    const { core } = await purchasingSetup(ctx)
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: '   ' }, ['name']],
      [{ name: 'a'.repeat(201) }, ['name']],
      [{ name: 'x\u0000y' }, ['name']],
      [{ name: 'x', currency: 'XXY' }, ['currency']],
      [{ name: 'x', currency: 'EURO' }, ['currency']],
      [{ name: 'x', paymentTerms: 'Net31' }, ['paymentTerms']],
      [{ name: 'x', leadTimeDays: -1 }, ['leadTimeDays']],
      [{ name: 'x', leadTimeDays: 1.5 }, ['leadTimeDays']],
      [{ name: 'x', leadTimeDays: 1e12 }, ['leadTimeDays']],
      [{ name: 'x', email: 'not-an-email' }, ['email']],
      [{ name: 'x', taxNumber: 'T'.repeat(51) }, ['taxNumber']],
      [{ name: 'x', notes: 'n'.repeat(2001) }, ['notes']],
      [{ name: 'x', address: { latitude: 91 } }, ['address.latitude']],
      [{ name: 'x', contacts: [{ firstName: ' ' }] }, ['contacts.0.firstName']],
      [
        {
          name: 'x',
          contacts: [
            { firstName: 'a', isPrimary: true },
            { firstName: 'b', isPrimary: true },
          ],
        },
        ['contacts'],
      ],
      [{ name: 'x', metadata: { ' ': 'v' } }, ['metadata. ']],
      [{ name: 'x', metadata: { k: 'v'.repeat(1001) } }, ['metadata.k']],
      [{ name: 'x', metadata: { k: 1 } }, ['metadata.k']],
      [{ name: 'x', isActive: 'maybe' }, ['isActive']],
    ]
    for (const [payload, fields] of cases) {
      const response = await core({ method: 'POST', url: '/api/v1/suppliers', payload })
      expect({ payload, status: response.statusCode }).toEqual({ payload, status: 400 })
      expect(fieldsOf(response)).toEqual(fields)
    }
    const huge = await core({
      method: 'POST',
      url: '/api/v1/suppliers',
      payload: { name: 'x'.repeat(1_000_000) },
    })
    expect(huge.statusCode).toBeLessThan(500)
    expect(huge.statusCode).toBeGreaterThanOrEqual(400)
    const flag = await core({ url: `/api/v1/suppliers/${randomUUID()}?includeDeleted=maybe` })
    expect({ status: flag.statusCode, fields: fieldsOf(flag) }).toEqual({
      status: 400,
      fields: ['includeDeleted'],
    })
    const notUuid = await core({ url: '/api/v1/suppliers/not-a-uuid' })
    expect({ status: notUuid.statusCode, fields: fieldsOf(notUuid) }).toEqual({
      status: 400,
      fields: ['supplierId'],
    })
  })

  it('answers 401, 403 per permission level, and 404 for another organisation or business', async () => {
    const owner = await purchasingSetup(ctx)
    const id = (await createSupplier(owner.core)).id
    await expectAccess(ctx, owner, 'Suppliers', 1, [
      { method: 'GET', url: '/api/v1/suppliers' },
      { method: 'GET', url: `/api/v1/suppliers/${id}` },
    ])
    await expectAccess(ctx, owner, 'Suppliers', 2, [
      { method: 'POST', url: '/api/v1/suppliers', payload: { name: 'New' } },
      { method: 'PUT', url: `/api/v1/suppliers/${id}`, payload: { name: 'Renamed' } },
    ])
    await expectAccess(ctx, owner, 'Suppliers', 4, [{ method: 'DELETE', url: `/api/v1/suppliers/${id}` }])

    // A signed-in Member views but may not change or delete.
    const member = await addMember(ctx, owner.org.businessId, { role: 'Member' })
    const live = (await createSupplier(owner.core)).id
    expect((await member.core({ url: `/api/v1/suppliers/${live}` })).statusCode).toBe(200)
    for (const request of [
      { method: 'POST' as const, url: '/api/v1/suppliers', payload: { name: 'x' } },
      { method: 'PUT' as const, url: `/api/v1/suppliers/${live}`, payload: { name: 'x' } },
      { method: 'DELETE' as const, url: `/api/v1/suppliers/${live}` },
    ]) {
      const refused = await member.core(request)
      expect({ status: refused.statusCode, code: refused.json().code }).toEqual({
        status: 403,
        code: 'permission_denied',
      })
    }

    const other = await purchasingSetup(ctx, 'another')
    const secondBusiness = await addBusiness(ctx, owner.org.businessId)
    const inSecond = { 'x-business-id': secondBusiness }
    for (const request of [
      { url: `/api/v1/suppliers/${id}` },
      { method: 'PUT' as const, url: `/api/v1/suppliers/${id}`, payload: { name: 'x' } },
      { method: 'DELETE' as const, url: `/api/v1/suppliers/${id}` },
    ]) {
      for (const [label, response] of [
        ['other organisation', await other.core(request)],
        ['other business', await owner.core({ ...request, headers: inSecond })],
        ['unknown id', await owner.core({ ...request, url: `/api/v1/suppliers/${randomUUID()}` })],
      ] as const) {
        expect({ label, status: response.statusCode, code: response.json().code }).toEqual({
          label,
          status: 404,
          code: 'supplier_not_found',
        })
      }
    }
    expect((await call<unknown[]>(other.core, 'GET', '/api/v1/suppliers')).length).toBe(0)
  })
})
