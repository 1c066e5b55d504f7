import { describe, expect, it } from 'vitest'
import { useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { loadConfig } from '../../../config.js'
import { createCustomer } from '../../customers/customers/customers.fixtures.js'
import { PNG } from '../../organisation/files/files.fixtures.js'
import { deliverySetup, post } from '../delivery.fixtures.js'
import { movePlan, shipment } from '../plans/plans.fixtures.js'
import { dispatchedPlan, stop, uploaded } from '../proof-of-delivery/proof-of-delivery.fixtures.js'
import { sendDueTrackingMails } from './tracking.service.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const deps = () => ({ config: loadConfig({}), database: ctx.database, services: ctx.services })
const tokenOf = (text: string) => /\/api\/v1\/track\/([A-Za-z0-9_-]+)/.exec(text)?.[1]
const page = (token: string) =>
  ctx.core.inject({ url: `/api/v1/track/${token}`, headers: { accept: 'text/html' } })

describe('tracking page', () => {
  it('is emailed to the customer’s contact at dispatch and shows status, timeline and window, nothing else', async () => {
    const { core } = await deliverySetup(ctx)
    const email = `buyer-${Date.now()}@example.com`
    const customer = await createCustomer(core, {
      name: 'Secret Customer Name',
      email: 'accounts@example.com',
      contacts: [{ firstName: 'Ann', email, isPrimary: true }],
    })
    const { shipments } = await dispatchedPlan(core, 1, {
      customerId: customer.id,
      notes: 'Internal note 42',
      deliveryWindows: [{ start: '2026-12-01T09:00:00Z', end: '2026-12-01T11:30:00Z' }],
    })
    const id = shipments[0]!.id
    // Rounds until this link's mail is out: on a PostgreSQL database other files share, a round
    // claims at most 50 due mails of every organisation, oldest first.
    for (let round = 0; round < 20 && !ctx.mailer.lastTo(email); round++)
      if ((await sendDueTrackingMails(deps())) === 0) break
    const mail = ctx.mailer.lastTo(email)
    expect(mail?.subject).toBe(`Your delivery ${shipments[0]!.code} is on its way`)
    const token = tokenOf(mail!.text)!
    expect(token.length).toBeGreaterThanOrEqual(43)
    // Sent once: the next round has nothing of this link to send.
    const before = ctx.mailer.sent.filter((m) => m.to === email).length
    await sendDueTrackingMails(deps())
    expect(ctx.mailer.sent.filter((m) => m.to === email)).toHaveLength(before)

    const opened = await page(token)
    expect(opened.statusCode).toBe(200)
    expect(opened.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(opened.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/)
    expect(opened.headers['content-security-policy']).not.toContain('script')
    expect(opened.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
    expect(opened.body).toContain('<h1>Out for delivery</h1>')
    expect(opened.body).toContain('Expected delivery: <span class="window">2026-12-01</span>')
    // The window in the business's time zone (the registration's default, UTC), with the zone named.
    expect(opened.body).toContain(
      'Delivery window: <span class="window">2026-12-01 09:00 to 2026-12-01 11:30</span> <small>(UTC)</small>',
    )
    // Not planned by plan-day: no planned arrival to tell.
    expect(opened.body).not.toContain('Planned arrival')
    expect(opened.body).toMatch(/Order received.*Out for delivery/)
    for (const secret of [
      'Secret Customer Name',
      'Internal note 42',
      shipments[0]!.code,
      'somewhere',
      '<script',
    ])
      expect(opened.body).not.toContain(secret)

    await stop(core, id, 'arrived')
    await stop(core, id, 'delivered', { recipientName: 'Ann', signatureFileId: await uploaded(core, PNG) })
    const delivered = await page(token)
    expect(delivered.body).toContain('<h1>Delivered</h1>')
    expect(delivered.body).toMatch(/Out for delivery.*Driver arrived.*Delivered <time/)
    expect(delivered.body).not.toContain('Ann')

    // The signed-in link is the same one.
    const link = await post(core, `/api/v1/shipments/${id}/tracking-link`)
    expect(link.statusCode, link.body).toBe(200)
    expect(link.json().data).toMatchObject({ shipmentId: id, emailTo: email })
    expect(tokenOf(link.json().data.url)).toBe(token)
    expect(link.json().data.emailedAt).not.toBeNull()
  })

  it('tells the planned arrival of a stop planned by plan-day while it is on its way', async () => {
    const { core } = await deliverySetup(ctx)
    const day = '2026-12-03'
    const van = await post(core, '/api/v1/vehicles', { registration: `T${Date.now() % 1e6}`, name: 'Van' })
    expect(van.statusCode, van.body).toBe(200)
    const parcel = await shipment(core, -33.93, 18.43, {
      scheduledDate: `${day}T08:00:00Z`,
      deliveryWindows: [{ start: `${day}T10:00:00Z`, end: `${day}T12:00:00Z` }],
    })
    const planned = await post(core, '/api/v1/plans/plan-day', {
      date: day,
      vehicleIds: [van.json().data.id],
      depot: { latitude: -33.92, longitude: 18.42 },
    })
    expect(planned.statusCode, planned.body).toBe(200)
    const route = planned.json().data.plans[0]
    const arrival = new Date(route.stops[0].plannedArrival as string)
    for (const move of ['schedule', 'dispatch']) {
      const moved = await movePlan(core, route.deliveryPlanId, move)
      expect(moved.statusCode, moved.body).toBe(200)
    }
    const link = await post(core, `/api/v1/shipments/${parcel.id}/tracking-link`)
    const opened = await page(tokenOf(link.json().data.url)!)
    const hhmm = arrival.toISOString().slice(11, 16)
    expect(opened.body).toContain(
      `Planned arrival: <span class="window">${day} ${hhmm}</span> <small>(UTC)</small>`,
    )
    // The SQL console reads the planned times and windows too.
    const read = await post(core, '/api/ai-studio/query', {
      query:
        'SELECT planned_arrival, jsonb_array_length(delivery_windows) AS windows, dispatched_at IS NOT NULL AS out FROM shipments WHERE id = $1',
      parameters: [parcel.id],
    })
    expect(read.statusCode, read.body).toBe(200)
    const [row] = read.json().data.rows as [string, number, boolean][]
    expect([Date.parse(row![0]), row![1], row![2]]).toEqual([arrival.getTime(), 1, true])
  })

  it('answers a 404 page for an unknown token (the error body to an API client) and 400 for a malformed one, with no sign-in', async () => {
    const missing = await page('A'.repeat(43))
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(missing.body).toContain('Link not found')
    const forClient = await ctx.core.inject({ method: 'GET', url: `/api/v1/track/${'A'.repeat(43)}` })
    expect([forClient.statusCode, forClient.json().code]).toEqual([404, 'tracking_link_not_found'])
    expect((await page('bad%00token-with-nul')).statusCode).toBe(400)
    expect((await page('short')).statusCode).toBe(400)
  })

  it('makes a link on ask for a shipment without a customer; 404 for another organisation’s, 401 and 403', async () => {
    const { core, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const mine = await shipment(core)
    const first = await post(core, `/api/v1/shipments/${mine.id}/tracking-link`)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().data).toMatchObject({ emailTo: null, emailedAt: null })
    const token = tokenOf(first.json().data.url)!
    expect((await page(token)).body).toContain('<h1>Order received</h1>')
    const theirs = await shipment(other.core)
    const cross = await post(core, `/api/v1/shipments/${theirs.id}/tracking-link`)
    expect([cross.statusCode, cross.json().code]).toEqual([404, 'shipment_not_found'])
    expect((await post(scoped, `/api/v1/shipments/${mine.id}/tracking-link`)).statusCode).toBe(403)
    expect(
      (await post((o) => ctx.core.inject(o), `/api/v1/shipments/${mine.id}/tracking-link`)).statusCode,
    ).toBe(401)
  })
})
