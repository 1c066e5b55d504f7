import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendWebhook } from './webhook-sender.js'
import { refusalOf, resolveTarget, urlRefusal } from './webhook-target.js'
import { startReceiver } from './webhooks.fixtures.js'

/**
 * Every form of a literal address a URL can carry, with what it is as a target: `private` (refused
 * unless WEBHOOKS_ALLOW_PRIVATE_TARGETS is on), `never` (refused always) or `public`.
 */
const FORMS: [host: string, verdict: 'private' | 'never' | 'public'][] = [
  // IPv4 loopback in every notation the URL parser reads (it canonicalises them all to 127.0.0.1)
  ['127.0.0.1', 'private'],
  ['127.1', 'private'],
  ['127.255.255.254', 'private'],
  ['0x7f.1', 'private'],
  ['0x7f000001', 'private'],
  ['2130706433', 'private'],
  ['017700000001', 'private'],
  ['0177.0.0.1', 'private'],
  // private, carrier-grade NAT and link-local IPv4
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['169.254.169.254', 'private'],
  // IPv6 loopback, unique-local, link-local, site-local
  ['[::1]', 'private'],
  ['[0:0:0:0:0:0:0:1]', 'private'],
  ['[fc00::1]', 'private'],
  ['[fd00::1]', 'private'],
  ['[fe80::1]', 'private'],
  ['[febf::1]', 'private'],
  ['[fec0::1]', 'private'],
  // IPv4-mapped and IPv4-translated: judged as the IPv4 address they carry
  ['[::ffff:127.0.0.1]', 'private'],
  ['[::ffff:7f00:1]', 'private'],
  ['[::ffff:10.0.0.1]', 'private'],
  ['[::ffff:a9fe:a9fe]', 'private'],
  ['[::ffff:0:127.0.0.1]', 'private'],
  ['[::ffff:0.0.0.0]', 'never'],
  ['[::ffff:224.0.0.1]', 'never'],
  ['[::ffff:93.184.216.34]', 'public'],
  // local-use NAT64 (RFC 8215) is not globally reachable, whatever it carries
  ['[64:ff9b:1::a00:1]', 'private'],
  ['[64:ff9b:1::5db8:d822]', 'private'],
  ['[64:ff9b:1::e000:1]', 'never'],
  // unspecified, broadcast, multicast, documentation, benchmarking, reserved
  ['0.0.0.0', 'never'],
  ['0.1.2.3', 'never'],
  ['255.255.255.255', 'never'],
  ['224.0.0.1', 'never'],
  ['239.255.255.250', 'never'],
  ['240.0.0.1', 'never'],
  ['192.0.0.1', 'never'],
  ['192.0.2.1', 'never'],
  ['198.18.0.1', 'never'],
  ['198.51.100.1', 'never'],
  ['203.0.113.1', 'never'],
  ['[::]', 'never'],
  ['[ff02::1]', 'never'],
  ['[ff05::1:3]', 'never'],
  ['[2001:db8::1]', 'never'],
  ['[3fff::1]', 'never'],
  ['[100::1]', 'never'],
  ['[4000::1]', 'never'],
  ['[::2:0:0:1]', 'never'],
  // IPv4-compatible (deprecated): never, whatever it carries
  ['[::127.0.0.1]', 'never'],
  ['[::7f00:1]', 'never'],
  ['[::10.0.0.1]', 'never'],
  ['[::93.184.216.34]', 'never'],
  // 6to4, well-known NAT64 and Teredo carry public IPv4 addresses only: any other is a way round
  ['[2002:7f00:1::]', 'never'],
  ['[2002:7f00:0001::1]', 'never'],
  ['[2002:a00:1::]', 'never'],
  ['[2002:c0a8:101::1]', 'never'],
  ['[2002:a9fe:a9fe::]', 'never'],
  ['[2002:5db8:d822::1]', 'public'],
  ['[64:ff9b::7f00:1]', 'never'],
  ['[64:ff9b::127.0.0.1]', 'never'],
  ['[64:ff9b::a9fe:a9fe]', 'never'],
  ['[64:ff9b::5db8:d822]', 'public'],
  ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'never'], // client 127.0.0.1 (inverted)
  ['[2001:0:7f00:1:8000:63bf:a247:27dd]', 'never'], // server 127.0.0.1
  ['[2001:0:4136:e378:8000:63bf:a247:27dd]', 'public'], // server 65.54.227.120, client 93.184.216.34
  // public
  ['93.184.216.34', 'public'],
  ['8.8.8.8', 'public'],
  ['[2606:2800:220:1:248:1893:25c8:1946]', 'public'],
]

describe('webhook targets (server-side request forgery)', () => {
  it.each(FORMS)('https://%s/ is %s, when saved and when dialled', async (host, verdict) => {
    const url = `https://${host}/hook`
    const saved = urlRefusal(url, false)
    const savedAllowingPrivate = urlRefusal(url, true)
    if (verdict === 'public') expect(saved).toBeNull()
    if (verdict === 'private') expect(saved).toMatch(/private \(WEBHOOKS_ALLOW_PRIVATE_TARGETS is off\)$/)
    if (verdict === 'never') expect(saved).toMatch(/never a webhook target$/)
    expect(savedAllowingPrivate).toBe(verdict === 'never' ? saved : null)
    // The worker checks what it is about to dial with the same classifier.
    const dialled = await resolveTarget(new URL(url), false)
    expect('refused' in dialled ? dialled.refused : null).toBe(saved)
    const dialledAllowingPrivate = await resolveTarget(new URL(url), true)
    expect('refused' in dialledAllowingPrivate ? dialledAllowingPrivate.refused : null).toBe(
      savedAllowingPrivate,
    )
  })

  it('names the IPv4 address an IPv6 address carries, and refuses what is not an address', () => {
    expect(refusalOf('2002:7f00:1::', false)).toMatch(/6to4 address carrying 127\.0\.0\.1 \(loopback\)/)
    expect(refusalOf('::127.0.0.1', true)).toMatch(/IPv4-compatible .* carrying 127\.0\.0\.1 \(loopback\)/)
    expect(refusalOf('2001:0:4136:e378:8000:63bf:80ff:fffe', false)).toMatch(/Teredo .*127\.0\.0\.1/)
    expect(refusalOf('fe80::1%eth0', false)).toMatch(/linkLocal/)
    expect(refusalOf('hooks.example.com', true)).toMatch(/not an IP address/)
  })

  it('takes https, and http only to a loopback host when private targets are allowed', () => {
    expect(urlRefusal('https://hooks.example.com/x', false)).toBeNull()
    expect(urlRefusal('http://hooks.example.com/x', true)).not.toBeNull()
    expect(urlRefusal('http://localhost:3000/x', false)).not.toBeNull()
    expect(urlRefusal('http://localhost:3000/x', true)).toBeNull()
    expect(urlRefusal('http://[::1]:3000/x', true)).toBeNull()
    expect(urlRefusal('http://10.0.0.1:3000/x', true)).not.toBeNull()
    expect(urlRefusal('http://[2002:7f00:1::]:3000/x', true)).not.toBeNull()
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

  it('never dials an IPv6 address that carries a loopback IPv4 address', async () => {
    const port = new URL(receiver.url).port
    const before = receiver.received.length
    for (const host of ['[::127.0.0.1]', '[2002:7f00:1::]']) {
      const sent = await sendWebhook(`https://${host}:${port}/x`, [secret], message, {
        timeoutMs: 2_000,
        allowPrivateTargets: true,
      })
      expect(sent, host).toMatchObject({ outcome: 'Refused', responseStatus: null })
    }
    expect(receiver.received).toHaveLength(before)
  })

  it('refuses a host that does not resolve', async () => {
    const sent = await sendWebhook('https://no-such-host.invalid/x', [secret], message, {
      timeoutMs: 2_000,
      allowPrivateTargets: false,
    })
    expect(sent).toMatchObject({ outcome: 'Refused', responseStatus: null })
  })
})
