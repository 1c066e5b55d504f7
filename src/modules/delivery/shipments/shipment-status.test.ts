import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { deliverySetup, post } from '../delivery.fixtures.js'
import { shipment } from '../plans/plans.fixtures.js'

const ctx = useTestContext()
const move = (core: Parameters<typeof post>[0], id: string, path: string, payload?: unknown) =>
  post(core, `/api/v1/shipments/${id}/${path}`, payload)

describe('parallel shipment moves', () => {
  it('of a parallel deliver and fail of a shipment in transit, exactly one wins', async () => {
    const { core } = await deliverySetup(ctx)
    for (let i = 0; i < 3; i++) {
      const { id } = await shipment(core)
      await move(core, id, 'assign')
      await move(core, id, 'dispatch')
      const [deliver, fail] = await Promise.all([
        move(core, id, 'deliver'),
        move(core, id, 'fail', { reason: 'Closed' }),
      ])
      expect([deliver.statusCode, fail.statusCode].sort()).toEqual([200, 409])
      const final = (await core({ url: `/api/v1/shipments/${id}` })).json().data
      expect(final.status).toBe(deliver.statusCode === 200 ? 'Delivered' : 'Failed')
    }
  })
})

describe.runIf(testDatabaseUrl())('shipment stamps after a lock wait', () => {
  it('stamps a move when it applies, not when its transaction began', async () => {
    const { core, org } = await deliverySetup(ctx)
    const schema = await schemaOf(ctx, org.businessId)
    const { id } = await shipment(core)
    for (const [to, stamp] of [
      ['assign', 'assignedAt'],
      ['dispatch', 'dispatchedAt'],
      ['deliver', 'deliveredAt'],
    ] as const) {
      const { result, releasedAt } = await afterRowLockWait(ctx, { schema, table: 'shipments', id }, () =>
        move(core, id, to),
      )
      expect(result.statusCode, result.body).toBe(200)
      expect(Date.parse(result.json().data[stamp])).toBeGreaterThanOrEqual(releasedAt.getTime())
    }
  })
})
