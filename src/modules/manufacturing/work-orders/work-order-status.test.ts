import { describe, expect, it } from 'vitest'
import {
  businessSession,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { createOrder, step, tableShop, type WorkOrder } from './work-orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

async function setup(organisation = 'first') {
  const owner = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const { bom } = await tableShop(owner.core)
  const order = () => createOrder(owner.core, bom.id, 1)
  return { ...owner, order }
}

describe('parallel work order moves', () => {
  it('of two parallel releases, exactly one wins', async () => {
    const { core, order } = await setup()
    const { id } = await order()
    const moves = await Promise.all(
      [1, 2].map(() => core({ method: 'POST', url: `/api/v1/work-orders/${id}/release` })),
    )
    expect(moves.map((r) => r.statusCode).sort()).toEqual([200, 409])
  })

  it('a parallel release and cancel of a Draft end Cancelled, released first if at all', async () => {
    const { core, order } = await setup()
    for (let i = 0; i < 3; i++) {
      const { id } = await order()
      const [release, cancel] = await Promise.all(
        ['release', 'cancel'].map((to) => core({ method: 'POST', url: `/api/v1/work-orders/${id}/${to}` })),
      )
      expect(cancel!.statusCode).toBe(200)
      const final = cancel!.json().data as WorkOrder
      expect(final.status).toBe('Cancelled')
      if (release!.statusCode === 200)
        expect(Date.parse(final.releasedAt!)).toBeLessThanOrEqual(Date.parse(final.cancelledAt!))
      else expect(release!.statusCode).toBe(409)
    }
  })
})

describe.runIf(testDatabaseUrl())('work order stamps after a lock wait', () => {
  // Each move below starts while another transaction holds the work order, and applies after it.
  // Stamped with now() (its transaction's start), it would come before the change it waited for.
  it('stamps release, start and cancel when they apply', async () => {
    const { core, org, order } = await setup()
    const schema = await schemaOf(ctx, org.businessId)
    const { id } = await order()
    for (const [to, stamp] of [
      ['release', 'releasedAt'],
      ['start', 'startedAt'],
      ['cancel', 'cancelledAt'],
    ] as const) {
      const { result, releasedAt } = await afterRowLockWait(ctx, { schema, table: 'work_orders', id }, () =>
        step(core, id, to),
      )
      expect(Date.parse(result[stamp]!)).toBeGreaterThanOrEqual(releasedAt.getTime())
    }
  })

  it('stamps a completion when it applies', async () => {
    const { core, org, order } = await setup()
    const schema = await schemaOf(ctx, org.businessId)
    const { id } = await order()
    await step(core, id, 'release')
    const { result, releasedAt } = await afterRowLockWait(ctx, { schema, table: 'work_orders', id }, () =>
      step(core, id, 'complete', {}),
    )
    expect(result.status).toBe('Completed')
    expect(Date.parse(result.completedAt!)).toBeGreaterThanOrEqual(releasedAt.getTime())
  })
})
