import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf, useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const truck = { registration: 'ca 123-456', name: 'Truck 1', maxWeight: 1000, maxVolume: 12.5 }

describe('vehicles', () => {
  it('creates, reads, lists, replaces and deletes with a bearer token and an API key', async () => {
    const { core, key } = await deliverySetup(ctx)
    const created = await post(core, '/api/v1/vehicles', truck)
    expect(created.statusCode).toBe(200)
    const vehicle = created.json().data
    expect(vehicle).toMatchObject({
      registration: 'CA 123-456',
      name: 'Truck 1',
      maxWeight: 1000,
      maxVolume: 12.5,
      active: true,
    })
    expect((await key({ url: `/api/v1/vehicles/${vehicle.id}` })).json().data).toEqual(vehicle)
    await post(key, '/api/v1/vehicles', { registration: 'VAN1', name: 'Van', maxWeight: null })
    const list = (await core({ url: '/api/v1/vehicles?$orderby=name asc' })).json()
    expect(list.data.map((v: { name: string }) => v.name)).toEqual(['Truck 1', 'Van'])
    expect(list.totalCount).toBe(2)
    const filtered = (await key({ url: "/api/v1/vehicles?$filter=registration eq 'VAN1'" })).json()
    expect(filtered.data).toHaveLength(1)
    const replaced = await put(key, `/api/v1/vehicles/${vehicle.id}`, {
      ...truck,
      name: 'Big truck',
      active: false,
    })
    expect(replaced.json().data).toMatchObject({ name: 'Big truck', active: false })
    expect((await core({ method: 'DELETE', url: `/api/v1/vehicles/${vehicle.id}` })).json().data).toBe(true)
    expect((await core({ url: `/api/v1/vehicles/${vehicle.id}` })).statusCode).toBe(404)
  })

  it('refuses bad input with 400 naming the field, and a duplicate registration with 409', async () => {
    const { core } = await deliverySetup(ctx)
    const bad = await post(core, '/api/v1/vehicles', { registration: '', name: 'x', maxWeight: -1 })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad)).toEqual(expect.arrayContaining(['registration']))
    const blank = await post(core, '/api/v1/vehicles', { registration: '  ', name: 'x' })
    expect(fieldsOf(blank)).toEqual(['registration'])
    await post(core, '/api/v1/vehicles', truck)
    const dup = await post(core, '/api/v1/vehicles', { ...truck, registration: 'CA 123-456' })
    expect(dup.statusCode).toBe(409)
    expect(dup.json().code).toBe('vehicle_registration_taken')
    expect((await core({ url: '/api/v1/vehicles?PageSize=0' })).statusCode).toBe(400)
  })

  it('answers 401 without a credential, 403 without the permission, 404 for another organisation', async () => {
    const { core, member, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const id = (await post(other.core, '/api/v1/vehicles', truck)).json().data.id
    expect((await ctx.core.inject({ url: '/api/v1/vehicles' })).statusCode).toBe(401)
    expect((await member({ url: '/api/v1/vehicles' })).statusCode).toBe(200)
    expect((await post(member, '/api/v1/vehicles', truck)).statusCode).toBe(403)
    expect((await scoped({ url: '/api/v1/vehicles' })).statusCode).toBe(403)
    for (const request of [
      { url: `/api/v1/vehicles/${id}` },
      { method: 'PUT' as const, url: `/api/v1/vehicles/${id}`, payload: truck },
      { method: 'DELETE' as const, url: `/api/v1/vehicles/${id}` },
      { url: `/api/v1/vehicles/${randomUUID()}` },
    ]) {
      expect((await core(request)).statusCode).toBe(404)
    }
  })
})
