import { describe, expect, it } from 'vitest'
import { addMember, createApiKey, fieldsOf, freshBusiness, schemaOf } from '../../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { readSetting, readSettings } from './settings.reader.js'
import { KNOWN_SETTINGS } from './settings.registry.js'

const ctx = useTestContext()
// Settings belong to a business: each test starts from a fresh business of one organisation.
const owner = useOwnerSession(ctx)

interface Item {
  key: string
  value: string | null
  type: string
  module: string | null
  description: string | null
  isDefault: boolean
  dateModified: string | null
}

const patch = (core: Core, payload: unknown) =>
  core({ method: 'PATCH', url: '/api/settings/business', payload: payload as object })
const list = async (core: Core, query = '') => {
  const response = await core({ url: `/api/settings/business${query}` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as {
    data: Item[]
    count: number
    totalCount: number
    page: number
    pageSize: number
    hasMore: boolean
  }
}
const item = (items: Item[], key: string) => items.find((i) => i.key === key)

describe('GET /api/settings/business', () => {
  it('lists every known setting with its default on one page', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const page = await list(core)
    expect(page).toMatchObject({
      page: 1,
      hasMore: false,
      count: KNOWN_SETTINGS.length,
      totalCount: KNOWN_SETTINGS.length,
    })
    expect(page.pageSize).toBe(KNOWN_SETTINGS.length)
    const keys = page.data.map((i) => i.key)
    expect(keys).toEqual([...keys].sort())
    expect(item(page.data, 'currency.default')).toEqual({
      key: 'currency.default',
      value: 'USD',
      type: 'currency',
      module: 'Settings',
      description: expect.any(String),
      isDefault: true,
      dateModified: null,
    })
    expect(item(page.data, 'stock.allowNegative')).toMatchObject({
      value: 'false',
      type: 'boolean',
      module: 'Products',
    })
    expect(item(page.data, 'orders.codePrefix')).toMatchObject({
      value: 'ORD',
      type: 'string',
      module: 'Orders',
    })
    expect(item(page.data, 'customers.codePrefix')).toMatchObject({ value: 'CUS', module: 'Customers' })
    expect(item(page.data, 'dispatch.codePrefix')).toMatchObject({ value: 'DSP', module: 'Shipments' })
    expect(item(page.data, 'shipments.codePrefix')).toMatchObject({ value: 'SHP', module: 'Shipments' })
    expect(item(page.data, 'packages.defaultPresetId')).toMatchObject({
      value: null,
      type: 'uuid',
      isDefault: true,
    })
    expect(item(page.data, 'packages.defaultWeightUnit')).toMatchObject({ value: 'Kg', type: 'enum' })
    expect(item(page.data, 'packages.defaultDimensionUnit')).toMatchObject({ value: 'Cm', type: 'enum' })
    expect(item(page.data, 'notifications.emailEnabled')).toMatchObject({ value: 'true', type: 'boolean' })
  })

  it('filters by a comma-separated list of case-sensitive keys', async () => {
    const { core } = await freshBusiness(ctx, owner)
    expect((await patch(core, { 'ui.theme': 'dark' })).statusCode).toBe(200)
    const some = await list(core, '?keys=stock.allowNegative, ui.theme,,nope')
    expect(some.data.map((i) => i.key)).toEqual(['stock.allowNegative', 'ui.theme'])
    expect(some).toMatchObject({ count: 2, totalCount: 2, pageSize: 2 })
    const none = await list(core, '?keys=Stock.AllowNegative')
    expect(none).toMatchObject({ data: [], count: 0, totalCount: 0, page: 1, pageSize: 1, hasMore: false })
    expect((await list(core, '?keys=')).count).toBe(KNOWN_SETTINGS.length + 1)
  })
})

describe('PATCH /api/settings/business', () => {
  it('saves typed values normalised, keeps unknown keys as text, and resets to the default with null', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const saved = await patch(core, {
      'stock.allowNegative': 'TRUE',
      'currency.default': 'zar',
      'packages.defaultWeightUnit': 'LB',
      'packages.defaultPresetId': '6F9619FF-8B86-D011-B42D-00C04FC964FF',
      'orders.codePrefix': 'SO',
      'ui.theme': '  dark  ',
    })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toEqual({ data: true, statusCode: 'OK', messages: [] })
    const after = (await list(core)).data
    expect(item(after, 'stock.allowNegative')).toMatchObject({ value: 'true', isDefault: false })
    expect(item(after, 'currency.default')).toMatchObject({ value: 'ZAR', isDefault: false })
    expect(item(after, 'packages.defaultWeightUnit')).toMatchObject({ value: 'Lb' })
    expect(item(after, 'packages.defaultPresetId')).toMatchObject({
      value: '6f9619ff-8b86-d011-b42d-00c04fc964ff',
    })
    expect(item(after, 'orders.codePrefix')).toMatchObject({ value: 'SO' })
    expect(item(after, 'ui.theme')).toEqual({
      key: 'ui.theme',
      value: '  dark  ',
      type: 'string',
      module: null,
      description: null,
      isDefault: false,
      dateModified: expect.any(String),
    })
    expect(
      Date.now() - new Date(item(after, 'stock.allowNegative')?.dateModified ?? 0).getTime(),
    ).toBeLessThan(60_000)

    const reset = await patch(core, { 'stock.allowNegative': null, 'ui.theme': null, 'never.stored': null })
    expect(reset.statusCode).toBe(200)
    const back = (await list(core)).data
    expect(item(back, 'stock.allowNegative')).toMatchObject({
      value: 'false',
      isDefault: true,
      dateModified: null,
    })
    expect(item(back, 'ui.theme')).toBeUndefined()
    expect(item(back, 'never.stored')).toBeUndefined()
    expect(item(back, 'currency.default')).toMatchObject({ value: 'ZAR' })
  })

  it('rejects values that do not fit their type, one reason per key, and saves nothing', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const response = await patch(core, {
      'stock.allowNegative': 'yes',
      'currency.default': 'DOLLAR',
      'packages.defaultPresetId': 'not-a-uuid',
      'packages.defaultDimensionUnit': 'yard',
      'orders.codePrefix': 'ORD-',
      'customers.codePrefix': '',
      'notifications.emailEnabled': 'false',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('validation_failed')
    expect(fieldsOf(response).sort()).toEqual([
      'currency.default',
      'customers.codePrefix',
      'orders.codePrefix',
      'packages.defaultDimensionUnit',
      'packages.defaultPresetId',
      'stock.allowNegative',
    ])
    expect(
      response.json().reasons.find((r: { field: string }) => r.field === 'stock.allowNegative').message,
    ).toMatch(/true/)
    // All or nothing: the valid key in the same request was not saved.
    expect(item((await list(core)).data, 'notifications.emailEnabled')).toMatchObject({ isDefault: true })
  })

  it('enforces the key and value limits', async () => {
    const { core } = await freshBusiness(ctx, owner)
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']))
    const many = await patch(core, tooMany)
    expect(many.statusCode).toBe(400)
    expect(fieldsOf(many).sort()).toEqual(['body'])
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v']))
    expect((await patch(core, hundred)).statusCode).toBe(200)

    const badKeys = await patch(core, { 'has space': 'v', ['k'.repeat(101)]: 'v', 'ok.key': 'v' })
    expect(badKeys.statusCode).toBe(400)
    expect(fieldsOf(badKeys).sort()).toEqual(['has space', 'k'.repeat(101)])
    const longValue = await patch(core, { 'ui.note': 'x'.repeat(4001) })
    expect(longValue.statusCode).toBe(400)
    expect(fieldsOf(longValue).sort()).toEqual(['ui.note'])
    expect((await patch(core, { 'ui.note': 'x'.repeat(4000) })).statusCode).toBe(200)
    const objectValue = await patch(core, { 'ui.note': { nested: true } })
    expect(objectValue.statusCode).toBe(400)
    expect(fieldsOf(objectValue).sort()).toEqual(['ui.note'])
    expect((await patch(core, ['not', 'an', 'object'])).statusCode).toBe(400)
    expect(item((await list(core)).data, 'ok.key')).toBeUndefined()
  })

  it('keeps each business’s settings apart', async () => {
    const { businessId, core } = await freshBusiness(ctx, owner)
    const branch = await core({ method: 'POST', url: '/api/business', payload: { registeredName: 'Branch' } })
    const asBranch = coreAs(ctx, {
      accessToken: owner.signedIn.accessToken,
      businessId: branch.json().data.id,
    })
    await patch(core, { 'stock.allowNegative': 'true' })
    expect(item((await list(asBranch)).data, 'stock.allowNegative')).toMatchObject({
      value: 'false',
      isDefault: true,
    })
    const other = await ownerSession(ctx)
    expect(item((await list(other.core)).data, 'stock.allowNegative')).toMatchObject({ isDefault: true })
    expect(item((await list(core)).data, 'stock.allowNegative')).toMatchObject({ value: 'true' })
    expect(businessId).not.toBe(branch.json().data.id)
  })

  it('is refused to a Member, who can still read', async () => {
    const { businessId } = await freshBusiness(ctx, owner)
    const member = await addMember(ctx, businessId, { role: 'Member' })
    const response = await patch(member.core, { 'stock.allowNegative': 'true' })
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('permission_denied')
    expect((await member.core({ url: '/api/settings/business' })).statusCode).toBe(200)
    expect((await member.core({ url: '/api/settings/products' })).statusCode).toBe(200)
    expect((await ctx.core.inject({ url: '/api/settings/business' })).statusCode).toBe(401)
  })

  it('works with an API key', async () => {
    const { businessId, core } = await freshBusiness(ctx, owner)
    const key = coreAs(ctx, { apiKey: await createApiKey(ctx, owner.signedIn.accessToken, businessId) })
    expect((await patch(key, { 'orders.codePrefix': 'PO' })).statusCode).toBe(200)
    expect(item((await list(core)).data, 'orders.codePrefix')).toMatchObject({ value: 'PO' })
    expect((await key({ url: '/api/settings/Orders' })).json()).toEqual([
      expect.objectContaining({ key: 'orders.codePrefix', value: 'PO', isDefault: false }),
      expect.objectContaining({ key: 'orders.shortConfirmation', value: 'Backorder', isDefault: true }),
    ])
  })
})

describe('GET /api/settings/{module}', () => {
  it('returns the module’s settings as a bare array, by name in any case or by number', async () => {
    const { core } = await freshBusiness(ctx, owner)
    await patch(core, { 'stock.allowNegative': 'true', 'ui.theme': 'dark' })
    const products = [
      'packages.defaultDimensionUnit',
      'packages.defaultPresetId',
      'packages.defaultWeightUnit',
      'stock.allowNegative',
    ]
    for (const module of ['Products', 'products', 'PRODUCTS', '4']) {
      const response = await core({ url: `/api/settings/${module}` })
      expect(response.statusCode, module).toBe(200)
      const items = response.json() as Item[]
      expect(items.map((i) => i.key)).toEqual(products)
      expect(items.every((i) => i.module === 'Products')).toBe(true)
      expect(item(items, 'stock.allowNegative')).toMatchObject({ value: 'true', isDefault: false })
    }
    const settings = (await core({ url: '/api/settings/10' })).json() as Item[]
    expect(settings.map((i) => i.key)).toEqual(['currency.default', 'notifications.emailEnabled'])
    expect((await core({ url: '/api/settings/Billing' })).json()).toEqual([])
  })

  it('names `module` when it is not a PermissionModule', async () => {
    const { core } = await freshBusiness(ctx, owner)
    for (const module of ['0', '17', '99', 'bogus']) {
      const response = await core({ url: `/api/settings/${module}` })
      expect(response.statusCode, module).toBe(400)
      expect(fieldsOf(response).sort()).toEqual(['module'])
    }
  })
})

describe('readSettings / readSetting', () => {
  it('gives other modules typed values merged over the defaults', async () => {
    const { businessId, core } = await freshBusiness(ctx, owner)
    const schema = await schemaOf(ctx, businessId)
    const db = ctx.database.db
    const defaults = await readSettings(db, schema, businessId)
    expect(defaults).toMatchObject({
      'stock.allowNegative': false,
      'notifications.emailEnabled': true,
      'currency.default': 'USD',
      'orders.codePrefix': 'ORD',
      'packages.defaultPresetId': null,
      'packages.defaultWeightUnit': 'Kg',
    })
    await patch(core, {
      'stock.allowNegative': 'true',
      'orders.codePrefix': 'SO',
      'packages.defaultDimensionUnit': 'IN',
    })
    const settings = await readSettings(db, schema, businessId)
    expect(settings['stock.allowNegative']).toBe(true)
    expect(settings['orders.codePrefix']).toBe('SO')
    expect(settings['packages.defaultDimensionUnit']).toBe('In')
    expect(await readSetting(db, schema, businessId, 'stock.allowNegative')).toBe(true)
    expect(await readSetting(db, schema, businessId, 'notifications.emailEnabled')).toBe(true)
    // A stored value that no longer fits its type reads as the default.
    await db
      .withSchema(schema)
      .updateTable('settings')
      .set({ value: 'garbage' })
      .where('business_id', '=', businessId)
      .where('key', '=', 'stock.allowNegative')
      .execute()
    expect(await readSetting(db, schema, businessId, 'stock.allowNegative')).toBe(false)
  })
})
