import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  insertCustomer,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { line, orderWithStatus, tracesOf } from './orders.fixtures.js'
import { moveStatus } from './orders.repository.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

type Status = 'Draft' | 'Confirmed' | 'Fulfilled' | 'Cancelled'
type Move = 'confirm' | 'fulfill' | 'cancel'

async function setup(organisation = 'first') {
  const owner = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const customerId = await insertCustomer(ctx, owner.org.businessId)
  const order = (status: Status = 'Draft') =>
    orderWithStatus(owner.core, { customerId, lines: [line(1, 1)] }, status)
  return { ...owner, customerId, order }
}

const move = (core: Core, orderId: string, to: Move) =>
  core({ method: 'POST', url: `/api/v1/orders/${orderId}/${to}` })

describe('order status moves', () => {
  it('confirms, then fulfils, stamping each time and noting it on the timeline', async () => {
    const { core, org, customerId, order } = await setup()
    const { id } = await order()
    const confirmed = await move(core, id, 'confirm')
    expect(confirmed.statusCode).toBe(200)
    const c = confirmed.json().data
    expect(c).toMatchObject({ id, status: 'Confirmed', fulfilledAt: null, cancelledAt: null, total: 1 })
    expect(Date.parse(c.confirmedAt)).toBeGreaterThan(0)
    const fulfilled = (await move(core, id, 'fulfill')).json().data
    expect(fulfilled).toMatchObject({ status: 'Fulfilled', confirmedAt: c.confirmedAt, cancelledAt: null })
    expect(Date.parse(fulfilled.fulfilledAt)).toBeGreaterThanOrEqual(Date.parse(c.confirmedAt))
    expect((await core({ url: `/api/v1/orders/${id}` })).json().data).toEqual(fulfilled)
    const traces = await tracesOf(ctx, org.businessId, customerId)
    expect(
      traces
        .filter((t) => t.order_id === id)
        .map((t) => t.type)
        .sort(),
    ).toEqual(['OrderConfirmed', 'OrderCreated', 'OrderFulfilled'])
    expect(traces.every((t) => t.source === 'System' && t.business_id === org.businessId)).toBe(true)
  })

  it('cancels a Draft or a Confirmed order', async () => {
    const { core, org, customerId, order } = await setup()
    for (const from of ['Draft', 'Confirmed'] as const) {
      const { id } = await order(from)
      const response = await move(core, id, 'cancel')
      expect(response.statusCode, from).toBe(200)
      const data = response.json().data
      expect(data.status).toBe('Cancelled')
      expect(Date.parse(data.cancelledAt)).toBeGreaterThan(0)
      expect(data.fulfilledAt).toBeNull()
    }
    const cancelled = (await tracesOf(ctx, org.businessId, customerId)).filter(
      (t) => t.type === 'OrderCancelled',
    )
    expect(cancelled).toHaveLength(2)
  })

  it('refuses every other move with 409 invalid_status_transition naming from and to', async () => {
    const { core, order } = await setup()
    const refused: [Status, Move, string][] = [
      ['Draft', 'fulfill', 'Fulfilled'],
      ['Confirmed', 'confirm', 'Confirmed'],
      ['Fulfilled', 'confirm', 'Confirmed'],
      ['Fulfilled', 'fulfill', 'Fulfilled'],
      ['Fulfilled', 'cancel', 'Cancelled'],
      ['Cancelled', 'confirm', 'Confirmed'],
      ['Cancelled', 'fulfill', 'Fulfilled'],
      ['Cancelled', 'cancel', 'Cancelled'],
    ]
    for (const [from, to, target] of refused) {
      const { id } = await order(from)
      const response = await move(core, id, to)
      expect(response.statusCode, `${from} ${to}`).toBe(409)
      const body = response.json()
      expect(body.code).toBe('invalid_status_transition')
      expect(body.message).toContain(`from ${from} to ${target}`)
      expect(body.reasons).toEqual([{ field: 'status', message: `from ${from} to ${target} is not allowed` }])
      expect((await core({ url: `/api/v1/orders/${id}` })).json().data.status).toBe(from)
    }
  })

  it("is a 404 for another organisation's or an unknown order, and a 400 for a malformed id", async () => {
    const { order } = await setup()
    const { id } = await order()
    const other = await sharedOrganisation(ctx, 'another')
    for (const to of ['confirm', 'fulfill', 'cancel'] as const) {
      for (const orderId of [id, randomUUID()]) {
        const response = await move(other.core, orderId, to)
        expect(response.statusCode).toBe(404)
        expect(response.json().code).toBe('order_not_found')
      }
      expect((await move(other.core, 'abc', to)).statusCode).toBe(400)
    }
  })
})

describe('parallel status moves', () => {
  const outcome = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort()

  it('of two parallel confirms, exactly one wins', async () => {
    const { core, order } = await setup()
    const orders = await Promise.all(Array.from({ length: 5 }, () => order()))
    const results = await Promise.all(
      orders.map(({ id }) => Promise.all([move(core, id, 'confirm'), move(core, id, 'confirm')])),
    )
    for (const pair of results) expect(outcome(pair)).toEqual([200, 409])
  })

  it('of a parallel fulfil and cancel on a Confirmed order, exactly one wins and the state matches it', async () => {
    const { core, org, customerId, order } = await setup()
    const orders = await Promise.all(Array.from({ length: 5 }, () => order('Confirmed')))
    for (const { id } of orders) {
      const [fulfil, cancel] = await Promise.all([move(core, id, 'fulfill'), move(core, id, 'cancel')])
      expect(outcome([fulfil, cancel])).toEqual([200, 409])
      const winner = fulfil.statusCode === 200 ? 'Fulfilled' : 'Cancelled'
      const loser = fulfil.statusCode === 200 ? cancel : fulfil
      expect(loser.json().code).toBe('invalid_status_transition')
      const final = (await core({ url: `/api/v1/orders/${id}` })).json().data
      expect(final.status).toBe(winner)
      expect(final.fulfilledAt === null).toBe(winner === 'Cancelled')
      expect(final.cancelledAt === null).toBe(winner === 'Fulfilled')
    }
    // One trace per successful move, none for the refused ones.
    const traces = await tracesOf(ctx, org.businessId, customerId)
    expect(traces.filter((t) => t.type === 'OrderFulfilled' || t.type === 'OrderCancelled')).toHaveLength(5)
  })

  it('a parallel confirm and cancel on a Draft order never leave a confirmed cancellation behind', async () => {
    // Cancel is allowed from Draft and from Confirmed, so confirm-then-cancel is a legal
    // sequence (both succeed); cancel-then-confirm is not (the confirm loses). Either way the
    // order ends Cancelled, and the confirm succeeded only if it ran first.
    const { core, order } = await setup()
    const orders = await Promise.all(Array.from({ length: 5 }, () => order()))
    for (const { id } of orders) {
      const [confirm, cancel] = await Promise.all([move(core, id, 'confirm'), move(core, id, 'cancel')])
      expect(cancel.statusCode).toBe(200)
      const final = (await core({ url: `/api/v1/orders/${id}` })).json().data
      expect(final.status).toBe('Cancelled')
      if (confirm.statusCode === 200) {
        expect(final.confirmedAt).not.toBeNull()
        expect(Date.parse(final.confirmedAt)).toBeLessThanOrEqual(Date.parse(final.cancelledAt))
      } else {
        expect(confirm.statusCode).toBe(409)
        expect(confirm.json().message).toContain('from Cancelled to Confirmed')
        expect(final.confirmedAt).toBeNull()
      }
    }
  })

  it.runIf(testDatabaseUrl())(
    'stamps a move when it applies, so a cancel that waited for a confirm is stamped after it',
    async () => {
      // The race above, forced: the cancel's transaction begins first, the confirm takes the row,
      // and the cancel waits for it. Stamped with now() (transaction start), cancelledAt would
      // come before the confirmedAt it followed.
      const { core, org, order } = await setup()
      const { id } = await order()
      const schema = await schemaOf(ctx, org.businessId)
      const cancel = await ctx.database.db.startTransaction().execute()
      await sql`select 1`.execute(cancel)
      await sleep(20)
      const confirm = await ctx.database.db.startTransaction().execute()
      try {
        expect(await moveStatus(confirm, schema, org.businessId, id, ['Draft'], 'Confirmed')).toBeDefined()
        const cancelling = moveStatus(cancel, schema, org.businessId, id, ['Draft', 'Confirmed'], 'Cancelled')
        await sleep(50)
        await confirm.commit().execute()
        expect(await cancelling).toBeDefined()
        await cancel.commit().execute()
      } finally {
        if (!confirm.isCommitted) await confirm.rollback().execute()
        if (!cancel.isCommitted) await cancel.rollback().execute()
      }
      const final = (await core({ url: `/api/v1/orders/${id}` })).json().data
      expect(final.status).toBe('Cancelled')
      expect(Date.parse(final.cancelledAt)).toBeGreaterThan(Date.parse(final.confirmedAt))
    },
  )
})
