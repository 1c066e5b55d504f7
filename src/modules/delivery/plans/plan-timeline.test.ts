import { describe, expect, it } from 'vitest'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { PNG } from '../../organisation/files/files.fixtures.js'
import { post } from '../delivery.fixtures.js'
import { dispatchedPlan, stop, uploaded } from '../proof-of-delivery/proof-of-delivery.fixtures.js'
import { movePlan, PLANS, plan } from './plans.fixtures.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)

interface Entry {
  at: string
  subject: string
  id: string
  code: string
  milestone: string
  note: string | null
}

async function timelineOf(core: Core, planId: string) {
  const response = await core({ url: `${PLANS}/${planId}/timeline` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data.entries as Entry[]
}

/** The shipment's milestones on the timeline, in order, with their notes. */
const milestonesOf = (entries: Entry[], shipmentId: string) =>
  entries.filter((e) => e.id === shipmentId).map((e) => [e.milestone, e.note])

/** Delivered with proof: the recipient and their signature. */
async function deliver(core: Core, shipmentId: string, recipientName: string) {
  const signatureFileId = await uploaded(core, PNG, 'signature.png')
  const delivered = await stop(core, shipmentId, 'delivered', { recipientName, signatureFileId })
  expect(delivered.statusCode, delivered.body).toBe(200)
}

async function complete(core: Core, planId: string) {
  const completed = await movePlan(core, planId, 'complete')
  expect(completed.statusCode, completed.body).toBe(200)
  return completed.json().data as { shipments: { id: string }[] }
}

describe("a plan's timeline", () => {
  it('keeps a failed delivery that completion replanned off the plan: its stops, reason and resolution', async () => {
    const { core } = owner
    const { plan: first, shipments } = await dispatchedPlan(core, 2)
    const [delivered, failed] = [shipments[0]!, shipments[1]!]
    expect((await stop(core, delivered.id, 'arrived')).statusCode).toBe(200)
    await deliver(core, delivered.id, 'Thandi Nkosi')
    expect((await stop(core, failed.id, 'arrived')).statusCode).toBe(200)
    const no = await stop(core, failed.id, 'failed', { reason: 'Nobody home' })
    expect(no.statusCode, no.body).toBe(200)
    // The default, delivery.failedDeliveryAction Replan: the failed shipment leaves the plan.
    expect((await complete(core, first.id)).shipments.map((s) => s.id)).toEqual([delivered.id])
    const back = (await core({ url: `/api/v1/shipments/${failed.id}` })).json().data
    expect(back).toMatchObject({ status: 'Pending', deliveryPlanId: null })

    const entries = await timelineOf(core, first.id)
    expect(milestonesOf(entries, failed.id)).toEqual([
      ['Arrived', null],
      ['Failed', 'Nobody home'],
      ['Replanned', null],
    ])
    expect(entries.find((e) => e.id === failed.id)?.code).toBe(failed.code)
    expect(milestonesOf(entries, delivered.id)).toEqual([
      ['Assigned', null],
      ['InTransit', null],
      ['Arrived', null],
      ['Delivered', null],
    ])
    const times = entries.map((e) => Date.parse(e.at))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    // Replanned when the plan completed, and listed after it.
    const completedAt = entries.find((e) => e.milestone === 'Completed')!
    const replanned = entries.find((e) => e.milestone === 'Replanned')!
    expect(replanned.at).toBe(completedAt.at)
    expect(entries.indexOf(replanned)).toBeGreaterThan(entries.indexOf(completedAt))

    // Delivered on a later plan: that plan shows the delivery, the first still shows the failure only.
    const second = await plan(core, { shipmentIds: [failed.id] })
    for (const move of ['schedule', 'dispatch'])
      expect((await movePlan(core, second.id, move)).statusCode).toBe(200)
    await deliver(core, failed.id, 'Sipho Dlamini')
    expect(milestonesOf(await timelineOf(core, first.id), failed.id)).toEqual([
      ['Arrived', null],
      ['Failed', 'Nobody home'],
      ['Replanned', null],
    ])
    expect(milestonesOf(await timelineOf(core, second.id), failed.id)).toEqual([
      ['Assigned', null],
      ['InTransit', null],
      ['Delivered', null],
    ])
  })

  it('keeps a failure reported by the status move alone (no stop reported) once it is replanned', async () => {
    const { core } = owner
    const { plan: p, shipments } = await dispatchedPlan(core, 1)
    const s = shipments[0]!
    const failed = await post(core, `/api/v1/shipments/${s.id}/fail`, { reason: 'Gate locked' })
    expect(failed.statusCode, failed.body).toBe(200)
    expect((await complete(core, p.id)).shipments).toEqual([])
    expect(milestonesOf(await timelineOf(core, p.id), s.id)).toEqual([
      ['Failed', 'Gate locked'],
      ['Replanned', null],
    ])
    // Its proof shows the failure on that plan, resolved.
    const proof = (await core({ url: `/api/v1/shipments/${s.id}/proof` })).json().data
    expect(proof.status).toBe('Pending')
    expect(proof.operations).toMatchObject([
      { kind: 'Failed', deliveryPlanId: p.id, reason: 'Gate locked', resolution: 'Replanned' },
    ])
  })
})
