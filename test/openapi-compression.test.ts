import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPRESS_THRESHOLD_BYTES } from '../src/http/kernel.js'
import { upload } from '../src/modules/organisation/files/files.fixtures.js'
import { credentialHeaders, ownerSession, startTestContext, type TestContext } from './harness.js'

// The reference (/openapi.json, /docs and its assets) is sent compressed to a client that accepts
// it; answers under the threshold (the hot paths), stored files and the event stream are sent as
// they are.

let ctx: TestContext
beforeAll(async () => {
  ctx = await startTestContext()
})
afterAll(() => ctx.close())

describe('compression', () => {
  it('sends the OpenAPI document and the /docs assets compressed, and the same content', async () => {
    const plain = await ctx.core.inject({ url: '/openapi.json' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    const brotli = await ctx.core.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip, br' } })
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers.vary).toMatch(/accept-encoding/i)
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5)
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString('utf8'))).toEqual(plain.json())

    const docs = await ctx.core.inject({ url: '/docs/json', headers: { 'accept-encoding': 'gzip' } })
    expect(docs.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(docs.rawPayload).toString('utf8')).paths).toEqual(plain.json().paths)

    const bundle = await ctx.core.inject({
      url: '/docs/static/swagger-ui-bundle.js',
      headers: { 'accept-encoding': 'br' },
    })
    expect(bundle.statusCode).toBe(200)
    expect(bundle.headers['content-encoding']).toBe('br')
    const script = brotliDecompressSync(bundle.rawPayload)
    expect(script.length).toBeGreaterThan(1_000_000)
    expect(bundle.rawPayload.length).toBeLessThan(script.length / 3)
  })

  it('leaves answers under the threshold as they are', async () => {
    const owner = await ownerSession(ctx)
    const me = await owner.core({ url: '/api/me', headers: { 'accept-encoding': 'gzip, br' } })
    expect(me.statusCode).toBe(200)
    expect(me.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES)
    expect(me.headers['content-encoding']).toBeUndefined()
    expect(me.json().data.businesses).toHaveLength(1)
  })

  it('sends a stored file as stored, with its Content-Length, even when it is compressible text', async () => {
    const owner = await ownerSession(ctx)
    const text = 'Delivery note: leave at the gate.\n'.repeat(2_000)
    expect(text.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES)
    const stored = await upload(owner.core, text, 'notes.txt', 'text/plain')
    expect(stored.statusCode).toBe(200)
    const download = await owner.core({
      url: `/api/files/${stored.json().data.id}`,
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toMatch(/^text\/plain/)
    expect(download.headers['content-encoding']).toBeUndefined()
    expect(download.headers['content-length']).toBe(String(text.length))
    expect(download.body).toBe(text)
  })

  it('streams notifications uncompressed, each event as it happens', async () => {
    const owner = await ownerSession(ctx)
    await ctx.core.listen({ host: '127.0.0.1', port: 0 })
    const { port } = ctx.core.server.address() as AddressInfo
    const received = await new Promise<{ encoding: unknown; type: unknown; text: string }>(
      (resolve, reject) => {
        const request = http.get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/notifications/stream',
            headers: { ...credentialHeaders(owner.credential), 'accept-encoding': 'gzip, br' },
          },
          (response) => {
            let text = ''
            const timer = setTimeout(() => {
              request.destroy()
              reject(new Error(`no event within 10 s: ${response.statusCode} ${text}`))
            }, 10_000)
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => {
              text += chunk
              if (!text.includes('event: notification')) return
              clearTimeout(timer)
              request.destroy()
              resolve({
                encoding: response.headers['content-encoding'],
                type: response.headers['content-type'],
                text,
              })
            })
            // Connected: configuring a carrier leaves a notification for the caller.
            if (response.statusCode === 200)
              owner
                .core({ method: 'POST', url: '/api/carriers/configure', payload: { carrierId: 2 } })
                .catch(reject)
          },
        )
        request.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)))
      },
    )
    expect(received.type).toMatch(/^text\/event-stream/)
    expect(received.encoding).toBeUndefined()
    expect(received.text).toContain('Carrier configured')
  }, 30_000)
})
