import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { ledgerOf, ok, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import { deliveredOrder, moveReturn, requestedReturn, requestReturn } from './returns.fixtures.js'

const ctx = useTestContext()

// Each request locks a row first (the return; the delivered shipment lines): held here so both queue on it.
describe.skipIf(!testDatabaseUrl())('returns racing (PostgreSQL)', () => {
  it('receives a return once when two receipts race, and counts its stock once', async () => {
    const owner = await ownerSession(ctx)
    const { product, shipment } = await deliveredOrder(ctx, owner, { onHand: 10, shipped: 4 })
    const rma = await requestedReturn(owner.core, {
      shipmentId: shipment.id,
      lines: [{ productId: product.id, quantity: 3 }],
    })
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'returns', id: rma.id },
      () => Promise.all([1, 2].map(() => moveReturn(owner.core, rma.id, 'receive', {}))),
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(result.find((r) => r.statusCode === 409)?.json().code).toBe('invalid_status_transition')
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 9 })
    expect((await ledgerOf(owner.core, product.id)).filter((e) => e.type === 'SaleReturn')).toHaveLength(1)
  })

  it('never returns more than was delivered when two requests race for the same goods', async () => {
    const owner = await ownerSession(ctx)
    const { product, shipment } = await deliveredOrder(ctx, owner, { onHand: 10, shipped: 4 })
    const { lines } = await ok<{ lines: { id: string }[] }>(
      owner.core,
      'GET',
      `/api/v1/shipments/${shipment.id}/lines`,
    )
    const body = {
      shipmentId: shipment.id,
      reason: 'Wrong colour',
      lines: [{ productId: product.id, quantity: 3 }],
    }
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'shipment_lines', id: lines[0]!.id },
      () => Promise.all([1, 2].map(() => requestReturn(owner.core, body))),
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 400])
    expect(result.find((r) => r.statusCode === 400)?.json().reasons).toEqual([
      { field: 'lines.0.quantity', message: 'at most 1 can be returned (4 delivered, 3 returned already)' },
    ])
  })
})
