import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { pdfText, squeezed } from '../../../../test/pdf-text.js'
import { createCustomer } from '../../customers/customers/customers.fixtures.js'
import { PNG } from '../../organisation/files/files.fixtures.js'
import { at, deliverySetup, post } from '../delivery.fixtures.js'
import { PLANS, plan } from '../plans/plans.fixtures.js'
import { dispatchedPlan, stop, uploaded } from '../proof-of-delivery/proof-of-delivery.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const document = async (core: Parameters<typeof post>[0], url: string) => {
  const response = await core({ url })
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200)
  expect(response.headers['content-type']).toBe('application/pdf')
  expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
  return squeezed(await pdfText(response.rawPayload))
}

describe('documents', () => {
  it('prints a delivery note with its proof once delivered, and the plan’s route sheet and pick list', async () => {
    const { core } = await deliverySetup(ctx)
    const customer = await createCustomer(core, { name: 'Harbour Cafe' })
    const { plan: saved, shipments } = await dispatchedPlan(core, 2, {
      customerId: customer.id,
      deliveryAddress: at(-33.9, 18.4, '12 Dock Road, Cape Town'),
      weight: 12.5,
      volume: 0.25,
    })
    const [first, second] = shipments as [{ id: string; code: string }, { id: string; code: string }]

    const before = await document(core, `/api/v1/shipments/${first.id}/delivery-note`)
    expect(before).toContain(`Delivery note ${first.code}`)
    expect(before).toContain('Customer: Harbour Cafe')
    expect(before).toContain('Deliver to: 12 Dock Road, Cape Town')
    expect(before).toContain(`Delivery plan: ${saved.code}`)
    expect(before).toContain('Weight: 12.5 kg')
    expect(before).toContain('Status: InTransit')
    expect(before.join('\n')).not.toContain('Proof of delivery')

    const delivered = await stop(core, first.id, 'delivered', {
      recipientName: 'Sipho Dlamini',
      signatureFileId: await uploaded(core, PNG),
      photoFileIds: [await uploaded(core, PNG, 'door.png')],
      latitude: -33.9012,
      longitude: 18.4034,
    })
    expect(delivered.statusCode, delivered.body).toBe(200)
    const after = await document(core, `/api/v1/shipments/${first.id}/delivery-note`)
    expect(after).toContain('Status: Delivered')
    expect(after).toContain('Proof of delivery')
    expect(
      after.some((line) => /^Sipho Dlamini \d{4}-\d\d-\d\d \d\d:\d\d UTC -33\.9012, 18\.4034 1$/.test(line)),
    ).toBe(true)
    expect(after).toContain('Signature')

    const sheet = await document(core, `${PLANS}/${saved.id}/route-sheet`)
    expect(sheet).toContain(`Route sheet ${saved.code}`)
    expect(sheet).toContain(`Date: ${saved.scheduledDate}`) // the day, not a Date's text
    expect(sheet).toContain('Stops: 2')
    expect(sheet).toContain('Total weight: 25 kg')
    const rows = sheet.filter((line) => /^\d+ SHP-/.test(line))
    expect(rows).toEqual([
      `1 ${first.code} Harbour Cafe 12 Dock Road, Cape Town 12.5 kg`,
      `2 ${second.code} Harbour Cafe 12 Dock Road, Cape Town 12.5 kg`,
    ])

    const picks = await document(core, `${PLANS}/${saved.id}/pick-list.pdf`)
    expect(picks).toContain(`Pick list ${saved.code}`)
    expect(picks.filter((line) => /^\d+ SHP-/.test(line))).toEqual([
      `1 ${first.code} Harbour Cafe 12.5 kg 0.25 m3 [ ]`,
      `2 ${second.code} Harbour Cafe 12.5 kg 0.25 m3 [ ]`,
    ])
    expect(picks).toContain('Total: 25 kg, 0.5 m3')
  })

  it('answers 404 for another organisation’s or an unknown id, 400 for a bad one, 401 and 403', async () => {
    const { core, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const theirs = await plan(other.core)
    const shipment = await post(other.core, '/api/v1/shipments', { weight: 1 })
    for (const url of [
      `/api/v1/shipments/${shipment.json().data.id}/delivery-note`,
      `${PLANS}/${theirs.id}/route-sheet`,
      `${PLANS}/${theirs.id}/pick-list.pdf`,
    ]) {
      expect((await core({ url })).statusCode, url).toBe(404)
      expect((await scoped({ url })).statusCode, url).toBe(403)
      expect((await ctx.core.inject({ url })).statusCode, url).toBe(401)
    }
    expect((await core({ url: `${PLANS}/${randomUUID()}/route-sheet` })).json().code).toBe(
      'delivery_plan_not_found',
    )
    expect((await core({ url: `${PLANS}/nope/pick-list.pdf` })).statusCode).toBe(400)
  })
})
