import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  createApiKey,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../access.fixtures.js'
import { ok } from '../manufacturing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

interface Preset {
  id: string
  name: string
  isDefault: boolean
  dimensionUnit: string
  weightUnit: string
  businessId?: string
  country: string | null
}
const box = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  length: 30,
  width: 20,
  height: 10,
  dimensionUnit: 'cm',
  maxWeight: 5,
  weightUnit: 1,
  ...extra,
})
const create = (core: Core, body: object) => ok<Preset>(core, 'POST', '/api/dimensions/presets', body)
const list = async (core: Core) => {
  const response = await core({ method: 'GET', url: '/api/dimensions/presets' })
  expect(response.statusCode).toBe(200)
  return response.json() as Preset[]
}

describe('dimension presets', () => {
  it('keeps exactly one default preset per business through create, update and delete', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const apiCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId),
    })
    const missing = await owner.core({ method: 'GET', url: '/api/dimensions/get-default-preset' })
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'no_default_preset'])
    const first = await create(owner.core, box('Small box', { country: 'za' }))
    expect(first).toMatchObject({
      isDefault: true,
      dimensionUnit: 'Cm',
      weightUnit: 'Kg',
      country: 'ZA',
      businessId: owner.org.businessId,
      length: 30,
    })
    const second = await create(apiCore, box('Large box', { length: 60, dimensionUnit: 3, weightUnit: 'LB' }))
    expect(second).toMatchObject({ isDefault: false, dimensionUnit: 'In', weightUnit: 'Lb' })
    const third = await create(owner.core, box('Flyer', { isDefault: true }))
    expect((await list(apiCore)).map((p) => [p.name, p.isDefault])).toEqual([
      ['Flyer', true],
      ['Large box', false],
      ['Small box', false],
    ])
    expect(await ok(apiCore, 'GET', '/api/dimensions/get-default-preset')).toMatchObject({ id: third.id })

    const undefault = await owner.core({
      method: 'PUT',
      url: `/api/dimensions/presets/${third.id}`,
      payload: box('Flyer', { isDefault: false }),
    })
    expect([undefault.statusCode, undefault.json().code]).toEqual([409, 'default_preset_required'])
    const moved = await ok<Preset>(
      owner.core,
      'PUT',
      `/api/dimensions/presets/${second.id}`,
      box('Large box v2', { isDefault: true }),
    )
    expect(moved).toMatchObject({ name: 'Large box v2', isDefault: true, dimensionUnit: 'Cm', country: null })
    expect((await list(owner.core)).filter((p) => p.isDefault).map((p) => p.id)).toEqual([second.id])

    expect(await ok(apiCore, 'DELETE', `/api/dimensions/presets/${second.id}`)).toBe(true)
    // The oldest remaining preset becomes the default.
    expect(await ok(owner.core, 'GET', '/api/dimensions/get-default-preset')).toMatchObject({ id: first.id })
  })

  it('answers 400 naming each invalid field and 404 for foreign presets', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const cases: [Record<string, unknown>, string[]][] = [
      [box('x', { length: 0 }), ['length']],
      [box('x', { width: -1, height: 0 }), ['width', 'height']],
      [box('x', { maxWeight: 0 }), ['maxWeight']],
      [box('x', { dimensionUnit: 'Yard' }), ['dimensionUnit']],
      [box('x', { weightUnit: 9 }), ['weightUnit']],
      [box('x', { length: 1.00001 }), ['length']],
      [box('  '), ['name']],
      [box('x', { country: 'ZAF' }), ['country']],
    ]
    for (const [payload, fields] of cases) {
      const response = await owner.core({ method: 'POST', url: '/api/dimensions/presets', payload })
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(fieldsOf(response), JSON.stringify(payload)).toEqual(fields)
    }
    const stranger = await sharedOrganisation(ctx, 'another')
    const theirs = await create(stranger.core, box('Theirs'))
    for (const id of [theirs.id, randomUUID()]) {
      for (const call of [
        { method: 'PUT' as const, url: `/api/dimensions/presets/${id}`, payload: box('x') },
        { method: 'DELETE' as const, url: `/api/dimensions/presets/${id}` },
      ]) {
        const response = await owner.core(call)
        expect([response.statusCode, response.json().code]).toEqual([404, 'dimension_preset_not_found'])
      }
    }
    expect(await list(owner.core)).toEqual([])
  })

  it('lists at least 30 real carrier templates of ZA, US, GB, DE and AU, without business ids', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const response = await owner.core({ method: 'GET', url: '/api/dimensions/templates' })
    const templates = response.json() as (Preset & { carrier: string; length: number })[]
    expect(templates.length).toBeGreaterThanOrEqual(30)
    expect(new Set(templates.map((t) => t.country))).toEqual(new Set(['ZA', 'US', 'GB', 'DE', 'AU']))
    expect(templates.every((t) => t.businessId === undefined && t.length > 0 && !t.isDefault)).toBe(true)
    expect(new Set(templates.map((t) => t.id)).size).toBe(templates.length)
    expect(templates).toContainEqual(
      expect.objectContaining({
        name: 'USPS Priority Mail Large Flat Rate Box',
        length: 12,
        width: 12,
        height: 5.5,
        dimensionUnit: 'In',
        weightUnit: 'Lb',
      }),
    )
    expect(templates).toContainEqual(
      expect.objectContaining({
        name: 'Royal Mail Small Parcel',
        length: 45,
        width: 35,
        height: 16,
        maxWeight: 2,
      }),
    )
  })

  it('gives the default units and symbols from the settings, else the country', async () => {
    // The country comes from the business's registration: a registered one, not a new branch.
    const owner = await ownerSession(ctx)
    expect(await ok(owner.core, 'GET', '/api/dimensions/get-default-dimensions')).toEqual({
      country: 'ZA',
      dimensionUnit: 'Cm',
      dimensionSymbol: 'cm',
      weightUnit: 'Kg',
      weightSymbol: 'kg',
    })
    const saved = await owner.core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'packages.defaultDimensionUnit': 'mm', 'packages.defaultWeightUnit': 'oz' },
    })
    expect(saved.statusCode).toBe(200)
    expect(await ok(owner.core, 'GET', '/api/dimensions/get-default-dimensions')).toMatchObject({
      dimensionUnit: 'Mm',
      dimensionSymbol: 'mm',
      weightUnit: 'Oz',
      weightSymbol: 'oz',
    })
  })

  it('needs Products View to read, Modify to write and Delete to delete', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const preset = await create(owner.core, box('Box'))
    await expectAccess(ctx, owner, 'Products', 1, [
      { method: 'GET', url: '/api/dimensions/presets' },
      { method: 'GET', url: '/api/dimensions/templates' },
      { method: 'GET', url: '/api/dimensions/get-default-dimensions' },
      { method: 'GET', url: '/api/dimensions/get-default-preset' },
    ])
    await expectAccess(ctx, owner, 'Products', 2, [
      { method: 'POST', url: '/api/dimensions/presets', payload: box('Other') },
      { method: 'PUT', url: `/api/dimensions/presets/${preset.id}`, payload: box('Box 2') },
    ])
    await expectAccess(ctx, owner, 'Products', 4, [
      { method: 'DELETE', url: `/api/dimensions/presets/${preset.id}` },
    ])
  })
})
