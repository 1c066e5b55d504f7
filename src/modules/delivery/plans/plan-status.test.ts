import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { deliverySetup } from '../delivery.fixtures.js'
import { movePlan, plan, shipment } from './plans.fixtures.js'

const ctx = useTestContext()

describe('parallel plan moves', () => {
  it('of a parallel dispatch and cancel of a Scheduled plan, exactly one wins and the shipments follow it', async () => {
    const { core } = await deliverySetup(ctx)
    for (let i = 0; i < 3; i++) {
      const p = await plan(core, { shipmentIds: [(await shipment(core)).id] })
      await movePlan(core, p.id, 'schedule')
      const [dispatch, cancel] = await Promise.all([
        movePlan(core, p.id, 'dispatch'),
        movePlan(core, p.id, 'cancel'),
      ])
      expect([dispatch.statusCode, cancel.statusCode].sort()).toEqual([200, 409])
      const final = (await core({ url: `/api/v1/plans/${p.id}` })).json().data
      if (dispatch.statusCode === 200) {
        expect(final.status).toBe('Dispatched')
        expect(final.shipments.map((s: { status: string }) => s.status)).toEqual(['InTransit'])
      } else {
        expect(final.status).toBe('Cancelled')
        expect(final.shipments).toEqual([])
      }
    }
  })
})

describe.runIf(testDatabaseUrl())('plan stamps after a lock wait', () => {
  it('stamps a move, and its shipments, when it applies', async () => {
    const { core, org } = await deliverySetup(ctx)
    const schema = await schemaOf(ctx, org.businessId)
    const p = await plan(core, { shipmentIds: [(await shipment(core)).id] })
    for (const [to, stamp] of [
      ['schedule', 'scheduledAt'],
      ['dispatch', 'dispatchedAt'],
    ] as const) {
      const { result, releasedAt } = await afterRowLockWait(
        ctx,
        { schema, table: 'delivery_plans', id: p.id },
        () => movePlan(core, p.id, to),
      )
      const moved = result.json().data
      expect(Date.parse(moved[stamp])).toBeGreaterThanOrEqual(releasedAt.getTime())
      if (to === 'dispatch') expect(moved.shipments[0].dispatchedAt).toBe(moved.dispatchedAt)
    }
  })
})
