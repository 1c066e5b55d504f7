import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { type TestContext, useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { loadConfig } from '../../../config.js'
import type { WorkerOptions } from './webhook-worker.js'
import { WebhookWorker } from './webhook-worker.js'
import {
  createEndpoint,
  createOrder,
  post,
  webhookSetup as setup,
  startReceiver,
} from './webhooks.fixtures.js'

// The receiver listens on 127.0.0.1: private targets are allowed in this file, as in development.
const ctx = useTestContext({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' })
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver.close()
})

/** A worker over the schemas of this file's organisations only (other files share a PostgreSQL database). */
const schemas: string[] = []
const worker = (overrides: Partial<WorkerOptions> = {}) =>
  new WebhookWorker(
    {
      config: { ...loadConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }), dataDir: ctx.dataDir },
      database: ctx.database,
      services: ctx.services,
    },
    { retryScheduleMs: [0, 0, 0], timeoutMs: 2_000, schemas, ...overrides },
  )

async function webhookSetup(context: TestContext) {
  const organisation = await setup(context)
  schemas.push(await schemaOf(context, organisation.org.businessId))
  return organisation
}

/** Runs rounds until one attempts nothing. */
async function drain(w: WebhookWorker) {
  let rounds = 0
  while ((await w.runOnce()) > 0) rounds++
  return rounds
}

/** The requests the receiver got from now on, for one test. */
function recording() {
  const start = receiver.received.length
  return () => receiver.received.slice(start)
}

const verify = (secret: string, request: { body: string; headers: Record<string, string> }) =>
  new Webhook(secret).verify(request.body, request.headers) as { type: string; data: Record<string, unknown> }

describe('webhook delivery', () => {
  it('delivers every event signed (verified with the Standard Webhooks verifier), in order per resource', async () => {
    receiver.answer(() => ({ status: 204 }))
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, {
      url: receiver.url,
      eventTypes: ['order.created', 'order.status_changed'],
    })
    const order = await createOrder(core, customerId)
    await post(core, `/api/v1/orders/${order.id}/confirm`)
    await post(core, `/api/v1/orders/${order.id}/fulfill`)
    await drain(worker())
    const payloads = got().map((request) => verify(endpoint.secret, request))
    expect(payloads.map((p) => [p.type, p.data.to ?? null])).toEqual([
      ['order.created', null],
      ['order.status_changed', 'Confirmed'],
      ['order.status_changed', 'Fulfilled'],
    ])
    expect(payloads[0]?.data).toMatchObject({ orderId: order.id, code: order.code, customerId })
    const events = (await core({ url: '/api/v1/webhooks/events' })).json().data
    expect(new Set(got().map((r) => r.headers['webhook-id']))).toEqual(
      new Set(events.map((e: { id: string }) => e.id)),
    )
    expect(
      events.flatMap((e: { deliveries: { status: string }[] }) => e.deliveries.map((d) => d.status)),
    ).toEqual(['Delivered', 'Delivered', 'Delivered'])
    const log = (await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries` })).json()
    expect(log.totalCount).toBe(3)
    expect(log.data[0]).toMatchObject({ outcome: 'Succeeded', responseStatus: 204, attempt: 1 })
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        got()[0]!.body,
        got()[0]!.headers,
      ),
    ).toThrow()
  })

  it('retries a failed delivery (500, then 200) and holds the resource’s later events until it succeeds', async () => {
    const got = recording()
    receiver.answer((_n, request) =>
      got().length === 0 && request.body.includes('order.created')
        ? { status: 500, body: 'down' }
        : { status: 200, body: 'ok' },
    )
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, {
      url: receiver.url,
      eventTypes: ['order.created', 'order.status_changed'],
    })
    const order = await createOrder(core, customerId)
    await post(core, `/api/v1/orders/${order.id}/confirm`)
    await drain(worker())
    expect(got().map((r) => verify(endpoint.secret, r).type)).toEqual([
      'order.created',
      'order.created',
      'order.status_changed',
    ])
    expect(got()[0]!.headers['webhook-id']).toBe(got()[1]!.headers['webhook-id'])
    const log = (
      await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries?$orderby=dateCreated asc` })
    ).json()
    expect(
      log.data.map((a: { outcome: string; responseStatus: number; attempt: number }) => [
        a.outcome,
        a.responseStatus,
        a.attempt,
      ]),
    ).toEqual([
      ['Failed', 500, 1],
      ['Succeeded', 200, 2],
      ['Succeeded', 200, 1],
    ])
    expect(log.data[0].responseBody).toBe('down')
  })

  it('does not follow redirects, caps the body it reads, and times out a slow receiver', async () => {
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    const log = async () =>
      (await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries` })).json().data[0]
    receiver.answer(() => ({ status: 302, headers: { location: 'http://169.254.169.254/latest' } }))
    await createOrder(core, customerId)
    await worker({ retryScheduleMs: [60_000] }).runOnce()
    expect(got()).toHaveLength(1)
    expect(await log()).toMatchObject({ outcome: 'Failed', responseStatus: 302 })
    expect((await log()).error).toContain('169.254.169.254')
    receiver.answer(() => ({ status: 200, body: 'x'.repeat(1_000_000) }))
    const big = await post(core, `/api/v1/webhooks/endpoints/${endpoint.id}/test`)
    expect(big.json().data).toMatchObject({ outcome: 'Succeeded', responseStatus: 200 })
    expect(big.json().data.responseBody).toHaveLength(2048)
    const slow = await startReceiver()
    slow.answer(() => ({ status: 200 }))
    const hang = await createEndpoint(ctx, core, {
      url: slow.url.replace('/hooks', '/slow'),
      eventTypes: ['order.created'],
    })
    // A receiver that accepts the connection and never answers.
    const { createServer } = await import('node:net')
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    await core({
      method: 'PUT',
      url: `/api/v1/webhooks/endpoints/${hang.id}`,
      payload: { url: `http://127.0.0.1:${port}/x`, eventTypes: ['order.created'] },
    })
    const started = Date.now()
    const timedOut = await post(core, `/api/v1/webhooks/endpoints/${hang.id}/test`)
    expect(timedOut.json().data.outcome).toBe('Failed')
    expect(Date.now() - started).toBeLessThan(20_000)
    silent.close()
    await slow.close()
  })

  it('stops at once while a send hangs, logs no attempt, and sends it again from the next worker', async () => {
    const { core, customerId } = await webhookSetup(ctx)
    const { createServer } = await import('node:net')
    let connected = () => {}
    const arrived = new Promise<void>((resolve) => {
      connected = resolve
    })
    const silent = createServer(() => connected())
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    const endpoint = await createEndpoint(ctx, core, {
      url: `http://127.0.0.1:${port}/x`,
      eventTypes: ['order.created'],
    })
    await createOrder(core, customerId)
    // A minute's timeout and lease: only the stop can end this send within the test.
    const stopping = worker({ timeoutMs: 60_000, leaseMs: 200 })
    const round = stopping.runOnce()
    await arrived
    const started = Date.now()
    await stopping.stop()
    await round
    expect(Date.now() - started).toBeLessThan(5_000)
    const log = async () =>
      (await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries` })).json().data as unknown[]
    expect(await log()).toEqual([])
    silent.close()
    // The claim lapses, and the next worker sends it (to a receiver that answers now).
    await core({
      method: 'PUT',
      url: `/api/v1/webhooks/endpoints/${endpoint.id}`,
      payload: { url: receiver.url, eventTypes: ['order.created'] },
    })
    receiver.answer(() => ({ status: 204 }))
    await new Promise((resolve) => setTimeout(resolve, 250))
    await drain(worker())
    expect(await log()).toMatchObject([{ outcome: 'Succeeded', eventType: 'order.created' }])
  })

  it('refuses private targets when the setting is off, at send time too', async () => {
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    await createOrder(core, customerId)
    await worker({ allowPrivateTargets: false, retryScheduleMs: [60_000] }).runOnce()
    expect(got()).toHaveLength(0)
    const attempt = (await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries` })).json()
      .data[0]
    expect(attempt).toMatchObject({ outcome: 'Refused', responseStatus: null })
  })

  it('never sends unsigned: a secret the key cannot decrypt is a failed attempt', async () => {
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    await createOrder(core, customerId)
    const otherKey = new WebhookWorker(
      {
        config: { ...loadConfig({ WEBHOOKS_SECRETS_KEY: 'ab'.repeat(32) }), dataDir: ctx.dataDir },
        database: ctx.database,
        services: ctx.services,
      },
      { allowPrivateTargets: true, retryScheduleMs: [60_000], schemas },
    )
    await otherKey.runOnce()
    expect(got()).toHaveLength(0)
    const attempt = (await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries` })).json()
      .data[0]
    expect(attempt).toMatchObject({ outcome: 'Failed' })
    expect(attempt.error).toContain('cannot be decrypted')
  })

  it('signs with both secrets during a rotation’s grace period, then with the new one only', async () => {
    receiver.answer(() => ({ status: 200 }))
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    const rotated = (await post(core, `/api/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`)).json().data
    await createOrder(core, customerId)
    await drain(worker())
    expect(got()[0]!.headers['webhook-signature']?.split(' ')).toHaveLength(2)
    expect(verify(rotated.secret, got()[0]!).type).toBe('order.created')
    expect(verify(endpoint.secret, got()[0]!).type).toBe('order.created')
    const again = (
      await post(core, `/api/v1/webhooks/endpoints/${endpoint.id}/rotate-secret?graceSeconds=0`)
    ).json().data
    await post(core, `/api/v1/webhooks/endpoints/${endpoint.id}/test`)
    expect(verify(again.secret, got()[1]!).type).toBe('webhook.test')
    expect(() => verify(rotated.secret, got()[1]!)).toThrow()
  })

  it('disables an endpoint after persistent failure and tells the business', async () => {
    receiver.answer(() => ({ status: 503 }))
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    await createOrder(core, customerId)
    await createOrder(core, customerId)
    await drain(worker({ retryScheduleMs: [0, 0], disableAfterFailures: 3 }))
    const read = (await core({ url: `/api/v1/webhooks/endpoints/${endpoint.id}` })).json().data
    expect(read.enabled).toBe(false)
    expect(read.disabledReason).toContain('HTTP 503')
    const events = (await core({ url: '/api/v1/webhooks/events' })).json().data
    expect(
      events.flatMap((e: { deliveries: { status: string }[] }) => e.deliveries.map((d) => d.status)),
    ).toEqual(['Failed', 'Failed'])
    const sent = got().length
    await createOrder(core, customerId)
    await drain(worker())
    expect(got()).toHaveLength(sent)
    const notifications = (await core({ url: '/api/notifications/user' })).json().data
    expect(JSON.stringify(notifications)).toContain('Webhook endpoint disabled')
    // Enabled again: the failures are cleared, and a replay of the time range sends what failed.
    receiver.answer(() => ({ status: 200 }))
    const enabled = await core({
      method: 'PUT',
      url: `/api/v1/webhooks/endpoints/${endpoint.id}`,
      payload: { url: receiver.url, eventTypes: ['order.created'], enabled: true },
    })
    expect(enabled.json().data).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null })
    const replay = await post(core, `/api/v1/webhooks/endpoints/${endpoint.id}/replay`, {
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 1_000).toISOString(),
    })
    expect(replay.json().data).toEqual({ queued: 2 })
    await drain(worker())
    expect(
      got()
        .slice(sent)
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual(events.map((e: { id: string }) => e.id).sort())
  })

  it('replays one event, and an endpoint’s time range, with the same webhook-id', async () => {
    receiver.answer(() => ({ status: 200 }))
    const got = recording()
    const { core, customerId } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    await createOrder(core, customerId)
    await createOrder(core, customerId)
    await drain(worker())
    expect(got()).toHaveLength(2)
    const [newest] = (await core({ url: '/api/v1/webhooks/events' })).json().data
    expect((await post(core, `/api/v1/webhooks/events/${newest.id}/replay`)).json().data).toEqual({
      queued: 1,
    })
    await drain(worker())
    expect(got()[2]!.headers['webhook-id']).toBe(newest.id)
    const range = await post(core, `/api/v1/webhooks/endpoints/${endpoint.id}/replay`, {
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 1_000).toISOString(),
    })
    expect(range.json().data).toEqual({ queued: 2 })
    await drain(worker())
    expect(got()).toHaveLength(5)
    for (const request of got()) expect(verify(endpoint.secret, request).type).toBe('order.created')
  })
})

describe.runIf(testDatabaseUrl())('two workers on PostgreSQL', () => {
  it('share the outbox: each event delivered once, none in flight twice', async () => {
    const got = recording()
    // A slow receiver keeps the two workers' claims overlapping: each claims while the other sends.
    receiver.answer(() => ({ status: 200, delayMs: 50 }))
    const { core, customerId } = await webhookSetup(ctx)
    await createEndpoint(ctx, core, { url: receiver.url, eventTypes: ['order.created'] })
    for (let i = 0; i < 30; i++) await createOrder(core, customerId)
    const [a, b] = [worker({ batchSize: 3 }), worker({ batchSize: 3 })]
    const rounds = await Promise.all([drain(a), drain(b)])
    expect(rounds[0]).toBeGreaterThan(0)
    expect(rounds[1]).toBeGreaterThan(0)
    const ids = got().map((r) => r.headers['webhook-id'])
    expect(ids).toHaveLength(30)
    expect(new Set(ids).size).toBe(30)
  })
})
