import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import {
  availabilityOf,
  confirm,
  draftOrder,
  reservationsOf,
  setShortConfirmation,
  stockedShop,
} from './reservations.fixtures.js'

const ctx = useTestContext()

// Confirmations lock the products they reserve: held here so both requests queue on the same row.
describe.skipIf(!testDatabaseUrl())('confirmations racing for the last units (PostgreSQL)', () => {
  it('lets only one of two refusing confirmations take the last 5', async () => {
    const owner = await ownerSession(ctx)
    const { customerId, product } = await stockedShop(ctx, owner, 5)
    await setShortConfirmation(owner.core, 'Refuse')
    const orders = await Promise.all(
      [1, 2].map(() => draftOrder(owner.core, customerId, [{ productId: product.id, quantity: 4 }])),
    )
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'products', id: product.id },
      () => Promise.all(orders.map((o) => confirm(owner.core, o.id))),
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(result.find((r) => r.statusCode === 409)?.json().code).toBe('insufficient_stock')
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({ reserved: 4, available: 1 })
  })

  it('never reserves more than there is when backordering confirmations race', async () => {
    const owner = await ownerSession(ctx)
    const { customerId, product } = await stockedShop(ctx, owner, 5)
    const orders = await Promise.all(
      [1, 2, 3].map(() => draftOrder(owner.core, customerId, [{ productId: product.id, quantity: 3 }])),
    )
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'products', id: product.id },
      () => Promise.all(orders.map((o) => confirm(owner.core, o.id))),
    )
    expect(result.map((r) => r.statusCode)).toEqual([200, 200, 200])
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({
      onHand: 5,
      reserved: 5,
      available: 0,
      backordered: 4,
    })
    const held = await Promise.all(orders.map((o) => reservationsOf(owner.core, o.id)))
    expect(held.map((h) => h.lines[0]!.reserved).sort()).toEqual([0, 2, 3])
  })
})
