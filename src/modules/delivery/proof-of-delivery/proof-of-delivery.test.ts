import { randomUUID } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  addMember,
  addRole,
  createApiKey,
  fieldsOf,
  organizationIdOf,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { GIF, JPEG, multipart, PDF, PNG } from '../../organisation/files/files.fixtures.js'
import { deliverySetup, post } from '../delivery.fixtures.js'
import { movePlan, shipment } from '../plans/plans.fixtures.js'
import { dispatchedPlan, stop, uploaded } from './proof-of-delivery.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

function outcomes() {
  const events: DomainEvent[] = []
  onTestFinished(
    ctx.services.events.on(`proof-test-${randomUUID()}`, async (_db, _schema, event) => {
      if (event.type === 'ShipmentDelivered' || event.type === 'ShipmentFailed') events.push(event)
    }),
  )
  return events
}

describe('delivery with proof', () => {
  it('records arrival, then delivery with recipient, signature, photos, point and time', async () => {
    const events = outcomes()
    const { core } = await deliverySetup(ctx)
    const { shipments, plan } = await dispatchedPlan(core)
    const id = shipments[0]!.id
    const arrived = await stop(core, id, 'arrived', { latitude: -33.91, longitude: 18.42 })
    expect(arrived.statusCode, arrived.body).toBe(200)
    expect(arrived.json().data.operations).toMatchObject([
      { kind: 'Arrived', latitude: -33.91, longitude: 18.42 },
    ])
    expect((await stop(core, id, 'arrived')).json().code).toBe('stop_already_arrived')

    const signature = await uploaded(core, PNG, 'signature.png')
    const photo = await uploaded(core, JPEG, 'door.jpg')
    // The device's own time, after the arrival the database stamped.
    const at = new Date().toISOString()
    const delivered = await stop(core, id, 'delivered', {
      recipientName: ' Thandi Nkosi ',
      signatureFileId: signature,
      photoFileIds: [photo],
      latitude: -33.9101,
      longitude: 18.4202,
      at,
      note: 'Left with reception',
    })
    expect(delivered.statusCode, delivered.body).toBe(200)
    const proof = delivered.json().data
    expect(proof).toMatchObject({ shipmentId: id, status: 'Delivered' })
    expect(proof.operations.map((o: { kind: string }) => o.kind)).toEqual(['Arrived', 'Delivered'])
    expect(proof.operations[1]).toMatchObject({
      recipientName: 'Thandi Nkosi',
      signatureFileId: signature,
      photoFileIds: [photo],
      latitude: -33.9101,
      longitude: 18.4202,
      occurredAt: at,
      deliveryPlanId: plan.id,
      note: 'Left with reception',
    })
    const read = (await core({ url: `/api/v1/shipments/${id}` })).json().data
    expect(read).toMatchObject({
      status: 'Delivered',
      proof: { recipientName: 'Thandi Nkosi', fileId: signature },
    })
    expect((await core({ url: `/api/v1/shipments/${id}/proof` })).json().data).toEqual(proof)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'ShipmentDelivered',
      payload: {
        shipmentId: id,
        deliveryPlanId: plan.id,
        proof: {
          proofUrl: `/api/v1/shipments/${id}/proof`,
          signatureUrl: `/api/files/${signature}`,
          photoUrls: [`/api/files/${photo}`],
        },
      },
    })
    // The signature's link reads back the uploaded image.
    const image = await core({ url: `/api/files/${signature}` })
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png'])
    // Delivered is final for stop operations.
    const again = await stop(core, id, 'delivered', { recipientName: 'X', signatureFileId: signature })
    expect([again.statusCode, again.json().code]).toEqual([409, 'invalid_status_transition'])
    expect((await stop(core, id, 'arrived')).json().code).toBe('shipment_not_in_transit')
  })

  it('lets a driver with Shipments Modify upload proof images and deliver with them, without any Customers permission', async () => {
    const owner = await deliverySetup(ctx)
    const { shipments } = await dispatchedPlan(owner.core)
    const id = shipments[0]!.id
    const organizationId = await organizationIdOf(ctx, owner.org.businessId)
    const as = async (permissions: Record<string, number>) =>
      (
        await addMember(ctx, owner.org.businessId, {
          role: 'Custom',
          customRoleId: await addRole(ctx, organizationId, permissions),
        })
      ).core
    const driver = await as({ Shipments: 3 })
    const viewer = await as({ Shipments: 1, Customers: 7 })
    const send = (core: typeof driver, url: string, content: Buffer, fileName: string) =>
      core({
        method: 'POST',
        url,
        ...multipart([{ name: 'file', fileName, contentType: 'image/png', content }]),
      })

    expect((await send(driver, '/api/files/single', PNG, 'sig.png')).statusCode).toBe(403)
    expect((await send(viewer, '/api/files/proof', PNG, 'sig.png')).statusCode).toBe(403)
    expect((await ctx.core.inject({ method: 'POST', url: '/api/files/proof' })).statusCode).toBe(401)
    const notImage = await send(driver, '/api/files/proof', PDF, 'scan.png')
    expect(notImage.statusCode, notImage.body).toBe(415)
    expect(notImage.json().code).toBe('file_type_not_allowed')
    const signature = await send(driver, '/api/files/proof', PNG, 'sig.png')
    expect(signature.statusCode, signature.body).toBe(200)
    expect(signature.json().data).toMatchObject({ contentType: 'image/png' })
    const photo = await send(driver, '/api/files/proof', JPEG, 'door.jpg')
    expect(photo.statusCode, photo.body).toBe(200)
    const delivered = await stop(driver, id, 'delivered', {
      recipientName: 'Gate',
      signatureFileId: signature.json().data.id,
      photoFileIds: [photo.json().data.id],
    })
    expect(delivered.statusCode, delivered.body).toBe(200)
    expect(delivered.json().data.status).toBe('Delivered')
  })

  it('makes images uploaded as attachments and then used as proof downloadable with Shipments View alone', async () => {
    const owner = await deliverySetup(ctx)
    const { shipments } = await dispatchedPlan(owner.core, 4)
    const [byStop, failedStop, byMove, byMoveScan] = shipments.map((s) => s.id) as [
      string,
      string,
      string,
      string,
    ]
    const organizationId = await organizationIdOf(ctx, owner.org.businessId)
    const as = async (permissions: Record<string, number>) =>
      (
        await addMember(ctx, owner.org.businessId, {
          role: 'Custom',
          customRoleId: await addRole(ctx, organizationId, permissions),
        })
      ).core
    const follower = await as({ Shipments: 1 })
    const followerKey = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
        scopes: JSON.stringify({ Shipments: 1 }),
      }),
    })
    const driver = await as({ Shipments: 3 })
    const read = async (core: typeof follower, id: string) =>
      (await core({ url: `/api/files/${id}` })).statusCode
    // Uploaded through /api/files/single (Customers Modify): attachments until a delivery names them.
    const signature = await uploaded(owner.core, PNG, 'signature.png')
    const photo = await uploaded(owner.core, JPEG, 'door.jpg')
    const moveProof = await uploaded(owner.core, PNG, 'pod.png')
    const scan = await uploaded(owner.core, PDF, 'pod.pdf')
    const unused = await uploaded(owner.core, PNG, 'logo.png')
    // A driver who may not read attachments names someone else's upload: it is proof, not opened up.
    const othersUpload = await uploaded(owner.core, PNG, 'passport.png')
    expect(await read(follower, signature)).toBe(403)

    const delivered = await stop(owner.core, byStop, 'delivered', {
      recipientName: 'Thandi',
      signatureFileId: signature,
      photoFileIds: [photo],
    })
    expect(delivered.statusCode, delivered.body).toBe(200)
    const failed = await stop(driver, failedStop, 'failed', {
      reason: 'Closed',
      photoFileIds: [othersUpload],
    })
    expect(failed.statusCode, failed.body).toBe(200)
    const moved = await post(owner.core, `/api/v1/shipments/${byMove}/deliver`, {
      recipientName: 'Sipho',
      fileId: moveProof,
    })
    expect(moved.statusCode, moved.body).toBe(200)
    // Only images become proof: a scanned PDF stays an attachment.
    const movedScan = await post(owner.core, `/api/v1/shipments/${byMoveScan}/deliver`, { fileId: scan })
    expect(movedScan.statusCode, movedScan.body).toBe(200)

    const reads = async (core: typeof follower) => ({
      signature: await read(core, signature),
      photo: await read(core, photo),
      moveProof: await read(core, moveProof),
      scan: await read(core, scan),
      unused: await read(core, unused),
      othersUpload: await read(core, othersUpload),
    })
    const expected = {
      signature: 200,
      photo: 200,
      moveProof: 200,
      scan: 403,
      unused: 403,
      othersUpload: 403,
    }
    expect(await reads(follower)).toEqual(expected)
    expect(await reads(followerKey)).toEqual(expected)
    // Customers View still reads every file.
    expect(await read(owner.core, unused)).toBe(200)
  })

  it('refuses proof that is not an image of this business of the allowed type and size, naming each field', async () => {
    const { core } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const { shipments } = await dispatchedPlan(core)
    const id = shipments[0]!.id
    const pdf = await uploaded(core, PDF, 'scan.pdf')
    const gif = await uploaded(core, GIF, 'anim.gif')
    const big = await uploaded(core, Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 1)]), 'big.png')
    const theirs = await uploaded(other.core, PNG, 'theirs.png')
    const ok = await uploaded(core, PNG, 'ok.png')
    const cases: [object, string[]][] = [
      [{ recipientName: 'A', signatureFileId: pdf }, ['signatureFileId']],
      [{ recipientName: 'A', signatureFileId: big }, ['signatureFileId']],
      [{ recipientName: 'A', signatureFileId: theirs }, ['signatureFileId']],
      [
        { recipientName: 'A', signatureFileId: randomUUID(), photoFileIds: [gif, theirs] },
        ['signatureFileId', 'photoFileIds.0', 'photoFileIds.1'],
      ],
      [{ signatureFileId: ok }, ['recipientName']],
      [{ recipientName: '   ', signatureFileId: ok }, ['recipientName']],
      [{ recipientName: 'A\u0000B', signatureFileId: ok }, ['recipientName']],
      [{ recipientName: 'A', signatureFileId: 'nope' }, ['signatureFileId']],
      [{ recipientName: 'A', signatureFileId: ok, latitude: 12 }, ['longitude']],
      [{ recipientName: 'A', signatureFileId: ok, latitude: 1e308, longitude: 0 }, ['latitude']],
      [{ recipientName: 'A', signatureFileId: ok, at: '2099-01-01T00:00:00Z' }, ['at']],
      [{ recipientName: 'A', signatureFileId: ok, at: '2000-01-01T00:00:00Z' }, ['at']],
      [
        { recipientName: 'A', signatureFileId: ok, photoFileIds: Array.from({ length: 11 }, randomUUID) },
        ['photoFileIds'],
      ],
    ]
    for (const [body, fields] of cases) {
      const response = await stop(core, id, 'delivered', body)
      expect([response.statusCode, fieldsOf(response)], JSON.stringify(body)).toEqual([400, fields])
    }
    const failed = await stop(core, id, 'failed', { reason: ' ' })
    expect([failed.statusCode, fieldsOf(failed)]).toEqual([400, ['reason']])
    const badChoice = await stop(core, id, 'failed', { reason: 'Closed', afterFailure: 'Burn' })
    expect([badChoice.statusCode, fieldsOf(badChoice)]).toEqual([400, ['afterFailure']])
    expect((await core({ url: `/api/v1/shipments/${id}` })).json().data.status).toBe('InTransit')
  })

  it('answers 404 for an unknown or another organisation’s shipment, 401 without and 403 without the permission', async () => {
    const { core, scoped, member } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const { shipments } = await dispatchedPlan(other.core)
    const theirs = shipments[0]!.id
    for (const operation of ['arrived', 'failed']) {
      const body = operation === 'failed' ? { reason: 'Closed' } : {}
      expect((await stop(core, theirs, operation, body)).json().code).toBe('shipment_not_found')
      expect((await stop(core, randomUUID(), operation, body)).statusCode).toBe(404)
      expect((await stop((o) => ctx.core.inject(o), theirs, operation, body)).statusCode).toBe(401)
      expect((await stop(scoped, theirs, operation, body)).statusCode).toBe(403)
    }
    expect((await core({ url: `/api/v1/shipments/${theirs}/proof` })).statusCode).toBe(404)
    expect((await scoped({ url: `/api/v1/shipments/${theirs}/proof` })).statusCode).toBe(403)
    expect((await member({ url: `/api/v1/shipments/${theirs}/proof` })).statusCode).toBe(404)
    expect((await core({ url: '/api/v1/shipments/not-a-uuid/proof' })).statusCode).toBe(400)
    const pending = await shipment(core)
    expect((await stop(core, pending.id, 'arrived')).json().code).toBe('shipment_not_in_transit')
    const early = await stop(core, pending.id, 'failed', { reason: 'Closed' })
    expect([early.statusCode, early.json().code]).toEqual([409, 'invalid_status_transition'])
  })
})

describe('failed deliveries', () => {
  it('publish shipment.failed and, when the plan completes, go back to Pending or on to Returned', async () => {
    const events = outcomes()
    const { core } = await deliverySetup(ctx)
    const { plan, shipments } = await dispatchedPlan(core, 3)
    const [replan, returned, delivered] = shipments.map((s) => s.id) as [string, string, string]
    const photo = await uploaded(core, PNG, 'closed.png')
    const failed = await stop(core, replan, 'failed', { reason: ' Gate locked ', photoFileIds: [photo] })
    expect(failed.statusCode, failed.body).toBe(200)
    expect(failed.json().data.operations[0]).toMatchObject({
      kind: 'Failed',
      reason: 'Gate locked',
      afterFailure: null,
    })
    await stop(core, returned, 'failed', { reason: 'Refused', afterFailure: 'returntostock' })
    await stop(core, delivered, 'delivered', {
      recipientName: 'B',
      signatureFileId: await uploaded(core, PNG),
    })
    expect(events.map((e) => e.type)).toEqual(['ShipmentFailed', 'ShipmentFailed', 'ShipmentDelivered'])
    expect(events[0]).toMatchObject({
      payload: {
        shipmentId: replan,
        reason: 'Gate locked',
        proof: { signatureUrl: null, photoUrls: [`/api/files/${photo}`] },
      },
    })
    expect((await movePlan(core, plan.id, 'complete')).statusCode).toBe(200)
    const read = async (id: string) => (await core({ url: `/api/v1/shipments/${id}` })).json().data
    expect(await read(replan)).toMatchObject({
      status: 'Pending',
      deliveryPlanId: null,
      stopSequence: null,
      failReason: 'Gate locked',
    })
    expect(await read(returned)).toMatchObject({ status: 'Returned', deliveryPlanId: plan.id })
    expect(await read(delivered)).toMatchObject({ status: 'Delivered' })
    const proof = (await core({ url: `/api/v1/shipments/${replan}/proof` })).json().data
    expect(proof.operations[0]).toMatchObject({ resolution: 'Replanned', deliveryPlanId: plan.id })
    // The replanned shipment goes out again on a later plan.
    const later = await core({
      method: 'POST',
      url: '/api/v1/plans',
      payload: { scheduledDate: '2026-12-02', shipmentIds: [replan] },
    })
    expect(later.statusCode, later.body).toBe(200)
  })

  it('follow the business setting when the stop did not choose', async () => {
    const { core } = await deliverySetup(ctx)
    const saved = await core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'delivery.failedDeliveryAction': 'ReturnToStock' },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    const { plan, shipments } = await dispatchedPlan(core, 2)
    await stop(core, shipments[0]!.id, 'failed', { reason: 'Nobody home' })
    await stop(core, shipments[1]!.id, 'failed', { reason: 'Wrong address', afterFailure: 'Replan' })
    expect((await movePlan(core, plan.id, 'complete')).statusCode).toBe(200)
    const statuses = []
    for (const s of shipments)
      statuses.push((await core({ url: `/api/v1/shipments/${s.id}` })).json().data.status)
    expect(statuses).toEqual(['Returned', 'Pending'])
    // Failed again on a later plan by its status move alone: that failure made no choice, so the
    // setting decides, not the Replan its earlier stop chose.
    const again = shipments[1]!.id
    const later = await core({
      method: 'POST',
      url: '/api/v1/plans',
      payload: { scheduledDate: '2026-12-02', shipmentIds: [again] },
    })
    expect(later.statusCode, later.body).toBe(200)
    for (const move of ['schedule', 'dispatch', 'complete']) {
      if (move === 'complete')
        expect((await post(core, `/api/v1/shipments/${again}/fail`, { reason: 'Closed' })).statusCode).toBe(
          200,
        )
      expect((await movePlan(core, later.json().data.id, move)).statusCode).toBe(200)
    }
    const proof = (await core({ url: `/api/v1/shipments/${again}/proof` })).json().data
    expect(proof.status).toBe('Returned')
    expect(proof.operations).toMatchObject([
      { kind: 'Failed', reason: 'Wrong address', afterFailure: 'Replan', resolution: 'Replanned' },
      { kind: 'Failed', reason: 'Closed', afterFailure: null, resolution: 'Returned' },
    ])
  })
})
