import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendWebhook } from './webhook-sender.js'
import { refusalOf, urlRefusal } from './webhook-target.js'
import { startReceiver } from './webhooks.fixtures.js'

describe('webhook targets (server-side request forgery)', () => {
  it('refuses private, loopback, link-local, unique-local and mapped addresses unless allowed', () => {
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(refusalOf(address, false), address).toMatch(/private, loopback or link-local/)
      expect(refusalOf(address, true), address).toBeNull()
    }
    for (const address of ['0.0.0.0', '224.0.0.1', '255.255.255.255', '::', 'ff02::1', '64:ff9b::a00:1'])
      expect(refusalOf(address, true), address).not.toBeNull()
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
      expect(refusalOf(address, false), address).toBeNull()
  })

  it('takes https, and http only to a loopback host when private targets are allowed', () => {
    expect(urlRefusal('https://hooks.example.com/x', false)).toBeNull()
    expect(urlRefusal('http://hooks.example.com/x', true)).not.toBeNull()
    expect(urlRefusal('http://localhost:3000/x', false)).not.toBeNull()
    expect(urlRefusal('http://localhost:3000/x', true)).toBeNull()
    expect(urlRefusal('http://[::1]:3000/x', true)).toBeNull()
    expect(urlRefusal('https://[::ffff:169.254.169.254]/x', false)).not.toBeNull()
  })
})

describe('sending', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 200, body: 'ok' }))
  })
  afterAll(() => receiver.close())

  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
  const message = { id: 'evt-1', body: JSON.stringify({ type: 'webhook.test', timestamp: 'now', data: {} }) }

  it('resolves a host name, checks it and connects to the checked address', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost')
    const before = receiver.received.length
    const sent = await sendWebhook(url, [secret], message, { timeoutMs: 2_000, allowPrivateTargets: true })
    expect(sent).toMatchObject({ outcome: 'Succeeded', responseStatus: 200, responseBody: 'ok' })
    const request = receiver.received[before]!
    expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ type: 'webhook.test' })
    const refused = await sendWebhook(url, [secret], message, {
      timeoutMs: 2_000,
      allowPrivateTargets: false,
    })
    expect(refused.outcome).toBe('Refused')
    expect(receiver.received).toHaveLength(before + 1)
  })

  it('refuses a host that does not resolve', async () => {
    const sent = await sendWebhook('https://no-such-host.invalid/x', [secret], message, {
      timeoutMs: 2_000,
      allowPrivateTargets: false,
    })
    expect(sent).toMatchObject({ outcome: 'Refused', responseStatus: null })
  })
})
