import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { type Core, ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { pdfText, squeezed } from '../../../../test/pdf-text.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct, ledgerOf, ok, receive, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import {
  availabilityOf,
  confirmedOrder,
  type Order,
  reservationsOf,
  stockedShop,
} from '../../sales/reservations/reservations.fixtures.js'
import { post, put } from '../delivery.fixtures.js'
import { movePlan, plan, shipment } from '../plans/plans.fixtures.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)
const other = useOwnerSession(ctx)

interface Lines {
  status: string
  lines: {
    id: string
    lineNumber: number
    quantity: number
    package: string | null
    unitCost: number | null
    returned: boolean
  }[]
  linesWeight: number | null
  linesVolume: number | null
}

const setLines = (core: Core, shipmentId: string, lines: object[]) =>
  put(core, `/api/v1/shipments/${shipmentId}/lines`, { lines })

async function onPlan(core: Core, shipmentIds: string[]) {
  const p = await plan(core)
  for (const shipmentId of shipmentIds) {
    const added = await post(core, `/api/v1/plans/${p.id}/shipments`, { shipmentId })
    expect(added.statusCode, added.body).toBe(200)
  }
  return p
}

const order = (core: Core, id: string) => ok<Order>(core, 'GET', `/api/v1/orders/${id}`)

describe('shipment lines, pick list and dispatch', () => {
  it('ships part of an order, issues it on dispatch at the moving average, and fulfils the order over two plans', async () => {
    const { customerId, product } = await stockedShop(ctx, owner, 10)
    const sorder = await confirmedOrder(owner.core, customerId, [{ productId: product.id, quantity: 6 }])
    const line = sorder.lines[0]!
    const first = await shipment(owner.core, -33.9, 18.4, { orderId: sorder.id })
    const set = await setLines(owner.core, first.id, [
      { orderLineId: line.id, quantity: 4, package: 'Box 1' },
    ])
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json().data.lines).toEqual([
      expect.objectContaining({
        lineNumber: 1,
        productId: product.id,
        quantity: 4,
        package: 'Box 1',
        unitCost: null,
      }),
    ])
    // More than is left of the order line is refused, naming the line.
    const second = await shipment(owner.core, -33.9, 18.4, { orderId: sorder.id })
    const over = await setLines(owner.core, second.id, [{ orderLineId: line.id, quantity: 3 }])
    expect(over.statusCode).toBe(400)
    expect(fieldsOf(over)).toEqual(['lines.0.quantity'])

    const p = await onPlan(owner.core, [first.id])
    const pick = await ok<{
      byProduct: { productId: string; quantity: number; stops: number }[]
      byStop: { code: string; lines: { quantity: number }[] }[]
    }>(owner.core, 'GET', `/api/v1/plans/${p.id}/pick-list`)
    expect(pick.byProduct).toEqual([
      expect.objectContaining({ productId: product.id, quantity: 4, stops: 1 }),
    ])
    expect(pick.byStop.map((s) => [s.code, s.lines.map((l) => l.quantity)])).toEqual([[first.code, [4]]])
    // The printed pick list shows the same lines: by product, then by stop.
    const printed = await owner.core({ url: `/api/v1/plans/${p.id}/pick-list.pdf` })
    expect(printed.headers['content-type']).toBe('application/pdf')
    const text = squeezed(await pdfText(printed.rawPayload))
    expect(text).toContain('By product')
    expect(text.filter((line) => line.startsWith(`1 ${first.code} `) && line.endsWith(' 4'))).toHaveLength(1)
    expect((await movePlan(owner.core, p.id, 'schedule')).statusCode).toBe(200)
    const dispatched = await movePlan(owner.core, p.id, 'dispatch')
    expect(dispatched.statusCode, dispatched.body).toBe(200)

    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 6 })
    const sale = (await ledgerOf(owner.core, product.id)).find((e) => e.type === 'Sale')
    expect(sale).toMatchObject({ quantity: -4, unitCost: 2 })
    const after = await ok<Lines>(owner.core, 'GET', `/api/v1/shipments/${first.id}/lines`)
    expect(after.lines[0]).toMatchObject({ unitCost: 2, returned: false })
    expect((await order(owner.core, sorder.id)).status).toBe('PartiallyFulfilled')
    expect((await reservationsOf(owner.core, sorder.id)).lines[0]).toMatchObject({ reserved: 2, shipped: 4 })
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({
      onHand: 6,
      reserved: 2,
      available: 4,
    })
    // Lines of a shipment that has left cannot change.
    expect((await setLines(owner.core, first.id, [])).json().code).toBe('shipment_lines_locked')

    const rest = await setLines(owner.core, second.id, [{ orderLineId: line.id, quantity: 2 }])
    expect(rest.statusCode, rest.body).toBe(200)
    const p2 = await onPlan(owner.core, [second.id])
    await movePlan(owner.core, p2.id, 'schedule')
    expect((await movePlan(owner.core, p2.id, 'dispatch')).statusCode).toBe(200)
    const fulfilled = await order(owner.core, sorder.id)
    expect(fulfilled.status).toBe('Fulfilled')
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({
      onHand: 4,
      reserved: 0,
      available: 4,
    })
  })

  it('refuses a dispatch short of stock as a whole, naming the line, and changes nothing', async () => {
    const product = await createProduct(owner.core, { type: 'FinishedGood' })
    await receive(owner.core, product.id, 1, 3)
    const s = await shipment(owner.core)
    expect((await setLines(owner.core, s.id, [{ productId: product.id, quantity: 2 }])).statusCode).toBe(200)
    const p = await onPlan(owner.core, [s.id])
    await movePlan(owner.core, p.id, 'schedule')
    const refused = await movePlan(owner.core, p.id, 'dispatch')
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('stock_shortfall')
    expect(fieldsOf(refused)).toEqual([`${s.code}.lines.0.quantity`])
    expect((await ok<{ status: string }>(owner.core, 'GET', `/api/v1/plans/${p.id}`)).status).toBe(
      'Scheduled',
    )
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 1 })
  })

  it('puts the goods of a shipment cancelled on the way back into stock at the cost they left with', async () => {
    const product = await createProduct(owner.core, { type: 'FinishedGood', weight: 1.5, weightUnit: 'Kg' })
    await receive(owner.core, product.id, 5, 4)
    const s = await shipment(owner.core)
    const set = await setLines(owner.core, s.id, [{ productId: product.id, quantity: 2 }])
    expect(set.json().data.linesWeight).toBe(3)
    await post(owner.core, `/api/v1/shipments/${s.id}/assign`)
    expect((await post(owner.core, `/api/v1/shipments/${s.id}/dispatch`)).statusCode).toBe(200)
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 3 })
    await receive(owner.core, product.id, 3, 10) // the average moves: the return still comes in at 4
    const cancelled = await post(owner.core, `/api/v1/shipments/${s.id}/cancel`)
    expect(cancelled.json().data.status).toBe('Cancelled')
    const back = (await ledgerOf(owner.core, product.id)).find((e) => e.type === 'SaleReturn')
    expect(back).toMatchObject({ quantity: 2, unitCost: 4 })
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 8 })
    expect((await ok<Lines>(owner.core, 'GET', `/api/v1/shipments/${s.id}/lines`)).lines[0]?.returned).toBe(
      true,
    )
  })

  it('weighs and measures a shipment given no weight or volume from its lines, in kg and m³, and its preset', async () => {
    const valve = await createProduct(owner.core, {
      type: 'FinishedGood',
      weight: 500,
      weightUnit: 'G',
      dimensions: { length: 10, width: 10, height: 20, unit: 'Cm' },
    })
    const rod = await createProduct(owner.core, { type: 'FinishedGood', weight: 2, weightUnit: 'Kg' })
    const weighed = (id: string) =>
      ok<{ weight: number | null; volume: number | null }>(owner.core, 'GET', `/api/v1/shipments/${id}`)
    // No weight or volume given: both follow the lines (0.5 kg × 4 + 2 kg × 1; 0.002 m³ × 4).
    const bare = await shipment(owner.core, -33.9, 18.4, { weight: null, volume: null })
    expect(await weighed(bare.id)).toMatchObject({ weight: null, volume: null })
    const set = await setLines(owner.core, bare.id, [{ productId: valve.id, quantity: 4 }])
    expect(set.json().data).toMatchObject({ linesWeight: 2, linesVolume: 0.008 })
    expect(await weighed(bare.id)).toMatchObject({ weight: 2, volume: 0.008 })
    await setLines(owner.core, bare.id, [
      { productId: valve.id, quantity: 4 },
      { productId: rod.id, quantity: 1 },
    ])
    // The rod has no dimensions: the volume is not known, the weight is.
    expect(await weighed(bare.id)).toMatchObject({ weight: 4, volume: null })
    // A package-size preset gives the volume (40 × 30 × 20 cm); the weight still follows the lines.
    const preset = await ok<{ id: string }>(owner.core, 'POST', '/api/dimensions/presets', {
      name: 'Crate',
      length: 40,
      width: 30,
      height: 20,
      dimensionUnit: 'Cm',
      maxWeight: 20,
      weightUnit: 'Kg',
    })
    const boxed = await put(owner.core, `/api/v1/shipments/${bare.id}`, {
      deliveryAddress: { fullAddress: '1 Dock Road', latitude: -33.9, longitude: 18.4 },
      dimensionPresetId: preset.id,
    })
    expect(boxed.statusCode, boxed.body).toBe(200)
    expect(boxed.json().data).toMatchObject({ weight: 4, volume: 0.024 })
    // What the client gives is kept, whatever the lines say.
    const given = await shipment(owner.core, -33.9, 18.4, { weight: 12, volume: 0.5 })
    await setLines(owner.core, given.id, [{ productId: valve.id, quantity: 2 }])
    expect(await weighed(given.id)).toMatchObject({ weight: 12, volume: 0.5 })
  })

  it('packs lines, and answers 400 naming the field, 404 for another organisation, 409 once gone', async () => {
    const session = await ownerSession(ctx)
    const product = await createProduct(session.core, { type: 'FinishedGood' })
    const service = await createProduct(session.core, { type: 'Service' })
    const s = await shipment(session.core)
    const lines = (await setLines(session.core, s.id, [{ productId: product.id, quantity: 1 }])).json()
      .data as Lines
    const packed = await put(session.core, `/api/v1/shipments/${s.id}/lines/${lines.lines[0]!.id}/package`, {
      package: 'Pallet A',
    })
    expect(packed.json().data.lines[0].package).toBe('Pallet A')
    const bad: [object[], string[]][] = [
      [[{ quantity: 1 }], ['lines.0']],
      [[{ productId: product.id, quantity: 0.00001 }], ['lines.0.quantity']],
      [[{ productId: service.id, quantity: 1 }], ['lines.0.productId']],
      [[{ productId: product.id, quantity: 'x' }], ['lines.0.quantity']],
      [[{ productId: product.id, quantity: 1, package: 'a\u0000b' }], ['lines.0.package']],
    ]
    for (const [body, fields] of bad) {
      const response = await setLines(session.core, s.id, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(fieldsOf(response).join(), JSON.stringify(body)).toContain(fields[0])
    }
    const theirs = await stockedShop(ctx, other, 1)
    const theirOrder = await confirmedOrder(other.core, theirs.customerId, [
      { productId: theirs.product.id, quantity: 1 },
    ])
    const foreign = await setLines(session.core, s.id, [
      { orderLineId: theirOrder.lines[0]!.id, quantity: 1 },
    ])
    expect(fieldsOf(foreign)).toEqual(['lines.0.orderLineId'])
    const theirShipment = await shipment(other.core)
    const theirPlan = await plan(other.core)
    for (const [method, url] of [
      ['GET', `/api/v1/shipments/${theirShipment.id}/lines`],
      ['PUT', `/api/v1/shipments/${theirShipment.id}/lines`],
      ['GET', `/api/v1/plans/${theirPlan.id}/pick-list`],
    ] as const) {
      const response = await session.core({
        method,
        url,
        ...(method === 'PUT' ? { payload: { lines: [] } } : {}),
      })
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 })
    }
    const unknownLine = await put(
      session.core,
      `/api/v1/shipments/${s.id}/lines/${theirShipment.id}/package`,
      {
        package: null,
      },
    )
    expect(unknownLine.json().code).toBe('shipment_line_not_found')
    await post(session.core, `/api/v1/shipments/${s.id}/cancel`)
    expect((await setLines(session.core, s.id, [])).statusCode).toBe(409)
  })

  it('needs Shipments View to read and Shipments Modify to change', async () => {
    const s = await shipment(owner.core)
    const p = await plan(owner.core)
    await expectAccess(ctx, owner, 'Shipments', 1, [
      { method: 'GET', url: `/api/v1/shipments/${s.id}/lines` },
      { method: 'GET', url: `/api/v1/plans/${p.id}/pick-list` },
    ])
    await expectAccess(ctx, owner, 'Shipments', 2, [
      { method: 'PUT', url: `/api/v1/shipments/${s.id}/lines`, payload: { lines: [] } },
    ])
  })
})
