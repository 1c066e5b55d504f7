import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { addBusiness, fieldsOf, insertCustomer, useSharedOrganisation } from '../../../../test/fixtures.js'
import { type Core, coreAs, useTestContext } from '../../../../test/harness.js'
import { PNG, upload } from '../../organisation/files/files.fixtures.js'
import { at, deliverySetup, post, put } from '../delivery.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const body = {
  deliveryAddress: at(-33.9, 18.4),
  weight: 12.5,
  volume: 0.2,
  scheduledDate: '2026-12-01T00:00:00Z',
}
const create = async (core: Core, extra: object = {}) => {
  const response = await post(core, '/api/v1/shipments', { ...body, ...extra })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: string; code: string; status: string }
}
const move = (core: Core, id: string, path: string, payload?: unknown) =>
  post(core, `/api/v1/shipments/${id}/${path}`, payload)

describe('shipments', () => {
  it('creates standalone and from an order, reads, lists, updates and deletes while Pending', async () => {
    const { core, key, org } = await deliverySetup(ctx)
    const customerId = await insertCustomer(ctx, org.businessId)
    const shipment = await create(core, { customerId, notes: ' fragile ' })
    expect(shipment).toMatchObject({
      code: 'SHP-000001',
      status: 'Pending',
      customerId,
      weight: 12.5,
      notes: 'fragile',
    })
    expect((await key({ url: `/api/v1/shipments/${shipment.id}` })).json().data).toEqual(shipment)
    const order = await post(core, '/api/v1/orders', {
      customerId,
      deliveryAddress: at(-33.95, 18.45, 'Order address'),
      lines: [{ description: 'Box', quantity: 1, unitPrice: 10 }],
    })
    const fromOrder = await create(key, { orderId: order.json().data.id, deliveryAddress: undefined })
    expect(fromOrder).toMatchObject({ customerId, code: 'SHP-000002' })
    expect(
      (fromOrder as unknown as { deliveryAddress: { fullAddress: string } }).deliveryAddress.fullAddress,
    ).toBe('Order address')
    const list = (await core({ url: '/api/v1/shipments?$orderby=code asc' })).json()
    expect(list.data.map((s: { code: string }) => s.code)).toEqual(['SHP-000001', 'SHP-000002'])
    const updated = await put(core, `/api/v1/shipments/${shipment.id}`, { ...body, weight: 3 })
    expect(updated.json().data).toMatchObject({ weight: 3, customerId: null })
    expect((await key({ method: 'DELETE', url: `/api/v1/shipments/${shipment.id}` })).json().data).toBe(true)
    expect((await core({ url: `/api/v1/shipments/${shipment.id}` })).statusCode).toBe(404)
  })

  it('moves Pending -> Assigned -> InTransit -> Delivered with stamps and proof of delivery', async () => {
    const { core, key } = await deliverySetup(ctx)
    const { id } = await create(core)
    expect((await move(core, id, 'assign')).json().data.assignedAt).toBeTruthy()
    const inTransit = (await move(key, id, 'dispatch')).json().data
    expect(inTransit).toMatchObject({ status: 'InTransit' })
    expect(Date.parse(inTransit.dispatchedAt)).toBeGreaterThanOrEqual(Date.parse(inTransit.assignedAt))
    const fileId = (await upload(core, PNG, 'pod.png', 'image/png')).json().data.id
    const wrongFile = await move(core, id, 'deliver', { fileId: randomUUID() })
    expect(wrongFile.statusCode).toBe(400)
    expect(fieldsOf(wrongFile)).toEqual(['fileId'])
    const delivered = await move(core, id, 'deliver', { recipientName: 'Sam', note: 'at the gate', fileId })
    expect(delivered.json().data).toMatchObject({
      status: 'Delivered',
      proof: { recipientName: 'Sam', note: 'at the gate', fileId },
    })
    expect(delivered.json().data.deliveredAt).toBeTruthy()
    const again = await move(core, id, 'deliver')
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('invalid_status_transition')
    expect((await put(core, `/api/v1/shipments/${id}`, body)).json().code).toBe('shipment_not_editable')
    expect((await core({ method: 'DELETE', url: `/api/v1/shipments/${id}` })).statusCode).toBe(409)
  })

  it('fails with a reason, then returns; cancels from Pending and Assigned only', async () => {
    const { core } = await deliverySetup(ctx)
    const { id } = await create(core)
    await move(core, id, 'assign')
    await move(core, id, 'dispatch')
    const noReason = await move(core, id, 'fail', {})
    expect(noReason.statusCode).toBe(400)
    expect(fieldsOf(noReason)).toEqual(['reason'])
    expect(fieldsOf(await move(core, id, 'fail', { reason: '   ' }))).toEqual(['reason'])
    const failed = (await move(core, id, 'fail', { reason: 'Nobody home' })).json().data
    expect(failed).toMatchObject({ status: 'Failed', failReason: 'Nobody home' })
    expect((await move(core, id, 'cancel')).statusCode).toBe(409)
    expect((await move(core, id, 'return')).json().data).toMatchObject({ status: 'Returned' })
    for (const steps of [[], ['assign']]) {
      const other = await create(core)
      for (const step of steps) await move(core, other.id, step)
      const cancelled = (await move(core, other.id, 'cancel')).json().data
      expect(cancelled.status).toBe('Cancelled')
      expect(cancelled.cancelledAt).toBeTruthy()
    }
    const pending = await create(core)
    for (const path of ['dispatch', 'return'])
      expect((await move(core, pending.id, path)).statusCode, path).toBe(409)
    expect((await move(core, pending.id, 'fail', { reason: 'x' })).statusCode).toBe(409)
  })

  it('validates references and input, with 400 naming the field', async () => {
    const { core, org } = await deliverySetup(ctx)
    const deleted = await insertCustomer(ctx, org.businessId, { deleted: true })
    expect(fieldsOf(await post(core, '/api/v1/shipments', { customerId: deleted }))).toEqual(['customerId'])
    expect(fieldsOf(await post(core, '/api/v1/shipments', { orderId: randomUUID() }))).toEqual(['orderId'])
    const bad = await post(core, '/api/v1/shipments', { weight: -1, deliveryAddress: { latitude: 91 } })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad).length).toBeGreaterThan(0)
    expect((await core({ url: '/api/v1/shipments?$filter=nope eq 1' })).statusCode).toBe(400)
  })

  it('takes a package-size preset of its own business only: 404 naming dimensionPresetId otherwise', async () => {
    const { core, org, signedIn } = await deliverySetup(ctx)
    const presetOf = async (caller: Core, name: string) => {
      const box = { name, length: 30, width: 20, height: 10, dimensionUnit: 'cm', weightUnit: 1 }
      const response = await post(caller, '/api/dimensions/presets', box)
      expect(response.statusCode, response.body).toBe(200)
      return (response.json().data as { id: string }).id
    }
    await presetOf(core, 'Default box')
    const preset = await presetOf(core, 'Small box')
    const branch = await addBusiness(ctx, org.businessId)
    const branchPreset = await presetOf(coreAs(ctx, { ...signedIn, businessId: branch }), 'Branch box')
    const foreignPreset = await presetOf((await deliverySetup(ctx, undefined, 'another')).core, 'Foreign box')
    const shipment = await create(core, { dimensionPresetId: preset })
    expect(shipment).toMatchObject({ dimensionPresetId: preset })
    for (const dimensionPresetId of [randomUUID(), branchPreset, foreignPreset]) {
      for (const response of [
        await post(core, '/api/v1/shipments', { ...body, dimensionPresetId }),
        await put(core, `/api/v1/shipments/${shipment.id}`, { ...body, dimensionPresetId }),
      ]) {
        expect(response.statusCode, dimensionPresetId).toBe(404)
        expect(response.json().code).toBe('dimension_preset_not_found')
        expect(fieldsOf(response)).toEqual(['dimensionPresetId'])
      }
    }
    const list = (await core({ url: '/api/v1/shipments' })).json()
    expect(list.data.map((s: { dimensionPresetId: string }) => s.dimensionPresetId)).toEqual([preset])
    // Deleting the preset clears the reference rather than leaving it dangling.
    expect((await core({ method: 'DELETE', url: `/api/dimensions/presets/${preset}` })).statusCode).toBe(200)
    const read = (await core({ url: `/api/v1/shipments/${shipment.id}` })).json().data
    expect(read.dimensionPresetId).toBeNull()
  })

  it('answers 401, 403 per permission and 404 for another organisation', async () => {
    const { core, member, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const foreign = await create(other.core)
    expect((await ctx.core.inject({ url: '/api/v1/shipments' })).statusCode).toBe(401)
    expect((await member({ url: '/api/v1/shipments' })).statusCode).toBe(200)
    expect((await post(member, '/api/v1/shipments', body)).statusCode).toBe(403)
    expect((await member({ method: 'DELETE', url: `/api/v1/shipments/${foreign.id}` })).statusCode).toBe(403)
    expect((await scoped({ url: '/api/v1/shipments' })).statusCode).toBe(403)
    for (const request of [
      { url: `/api/v1/shipments/${foreign.id}` },
      { method: 'PUT' as const, url: `/api/v1/shipments/${foreign.id}`, payload: body },
      { method: 'DELETE' as const, url: `/api/v1/shipments/${foreign.id}` },
      { method: 'POST' as const, url: `/api/v1/shipments/${foreign.id}/assign` },
    ]) {
      expect((await core(request)).statusCode).toBe(404)
    }
  })
})
