import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { createApiKey } from '../../../test/fixtures.js'
import { credentialHeaders, secondCoreApp, useTestContext } from '../../../test/harness.js'
import type { HttpApp } from '../../http/kernel.js'
import { deliverySetup } from '../delivery/delivery.fixtures.js'

const ctx = useTestContext()
const apps: HttpApp[] = []
afterAll(async () => {
  for (const app of apps) await app.close()
})

interface Event {
  id: string
  data: { title: string }
}

/** Opens the stream and collects events until `count` arrived (or the timeout), then disconnects. */
function collect(
  port: number,
  headers: Record<string, string>,
  count: number,
  onOpen?: () => Promise<unknown>,
) {
  return new Promise<{ status: number; type: string; events: Event[]; body?: unknown }>((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: '/api/notifications/stream', headers },
      (response) => {
        const events: Event[] = []
        let buffer = ''
        const done = () => {
          clearTimeout(timer)
          request.destroy()
          resolve({
            status: response.statusCode ?? 0,
            type: String(response.headers['content-type']),
            events,
          })
        }
        const timer = setTimeout(done, 8_000)
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          buffer += chunk
          let end = buffer.indexOf('\n\n')
          while (end >= 0) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const id = /^id: (.+)$/m.exec(block)?.[1]
            const data = /^data: (.+)$/m.exec(block)?.[1]
            if (id && data) events.push({ id, data: JSON.parse(data) })
            end = buffer.indexOf('\n\n')
          }
          if (events.length >= count) done()
        })
        if (response.statusCode === 200) onOpen?.().catch(reject)
        else {
          // An error answer is one JSON body: read it whole.
          response.on('end', () => {
            clearTimeout(timer)
            resolve({
              status: response.statusCode ?? 0,
              type: String(response.headers['content-type']),
              events,
              body: JSON.parse(buffer),
            })
          })
        }
      },
    )
    request.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)))
  })
}

/** A second Core API process, listening on a port of its own. */
async function listening(): Promise<number> {
  const app = await secondCoreApp(ctx)
  apps.push(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as AddressInfo).port
}

/** A key without Settings view. */
const scopedKey = (s: Awaited<ReturnType<typeof deliverySetup>>) =>
  createApiKey(ctx, s.signedIn.accessToken, s.org.businessId, { scopes: JSON.stringify({ Orders: 1 }) })

describe('notification stream', () => {
  it('pushes notifications created by another process and replays after Last-Event-ID', async () => {
    // An organisation of its own, as this test has failed on PostgreSQL in a new business of a shared one.
    const s = await deliverySetup(ctx, undefined, null)
    const other = await secondCoreApp(ctx)
    apps.push(other)
    await other.listen({ port: 0, host: '127.0.0.1' })
    const port = (other.server.address() as AddressInfo).port
    const headers = credentialHeaders(s.credential)
    const configure = (carrierId: number) =>
      s.core({ method: 'POST', url: '/api/carriers/configure', payload: { carrierId } })
    const first = await collect(port, headers, 1, () => configure(2))
    expect(first.status).toBe(200)
    expect(first.type).toContain('text/event-stream')
    expect(first.events.map((e) => e.data.title)).toEqual(['Carrier configured'])
    // Two more while disconnected: a reconnect with Last-Event-ID receives exactly those.
    await configure(3)
    await configure(4)
    const resumed = await collect(port, { ...headers, 'last-event-id': first.events[0]?.id as string }, 2)
    expect(resumed.events).toHaveLength(2)
    expect(Number(resumed.events[0]?.id)).toBeGreaterThan(Number(first.events[0]?.id))
    const key = await collect(port, { 'x-dispatch-api-key': 'nope' }, 1)
    expect(key.status).toBe(401)
  }, 90_000)

  it('is refused to an API key, even one with Settings view replaying from Last-Event-ID 0', async () => {
    const s = await deliverySetup(ctx)
    const port = await listening()
    const settingsView = await createApiKey(ctx, s.signedIn.accessToken, s.org.businessId, {
      scopes: JSON.stringify({ Settings: 1 }),
    })
    for (const apiKey of [settingsView, await scopedKey(s)]) {
      const refused = await collect(port, { 'x-dispatch-api-key': apiKey, 'last-event-id': '0' }, 1)
      expect(refused.status).toBe(403)
      expect(refused.events).toEqual([])
      expect(refused.body).toMatchObject({ code: 'api_key_not_allowed' })
    }
    // The owner's stream replays the same notifications (the setup's two API keys).
    const owner = await collect(port, { ...credentialHeaders(s.credential), 'last-event-id': '0' }, 2)
    expect(owner.status).toBe(200)
    expect(owner.events).toHaveLength(2)
  }, 90_000)
})
