import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * Where a webhook may be sent (server-side request forgery). Addresses the operator did not allow
 * are refused: private, loopback, link-local, unique-local and carrier-grade NAT ranges unless
 * WEBHOOKS_ALLOW_PRIVATE_TARGETS is on; unspecified, multicast, documentation and reserved ranges
 * always. IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry.
 */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

const NEVER = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NEVER.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
] as const)
  NEVER.addSubnet(network, prefix, 'ipv6')

/** Why an address is refused, or null when a webhook may go there. */
export function refusalOf(address: string, allowPrivate: boolean): string | null {
  const family = isIP(address)
  if (family === 0) return `${address} is not an IP address`
  const type = family === 4 ? 'ipv4' : 'ipv6'
  if (NEVER.check(address, type)) return `${address} is a reserved, multicast or unspecified address`
  if (!allowPrivate && PRIVATE.check(address, type))
    return `${address} is a private, loopback or link-local address (WEBHOOKS_ALLOW_PRIVATE_TARGETS is off)`
  return null
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '')

const isLoopbackHost = (hostname: string) => {
  const host = bare(hostname).toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 0) return false
  const loopback = new BlockList()
  loopback.addSubnet('127.0.0.0', 8, 'ipv4')
  loopback.addAddress('::1', 'ipv6')
  return loopback.check(host, isIP(host) === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Why an endpoint URL is refused when it is saved, or null: https, or http only to a loopback host
 * and only when private targets are allowed (local development); no credentials in the URL; a
 * literal IP address must be one a webhook may reach. Host names are checked when sending, since
 * what they resolve to can change.
 */
export function urlRefusal(raw: string, allowPrivate: boolean): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL'
  if (url.protocol === 'http:' && !(allowPrivate && isLoopbackHost(url.hostname)))
    return 'must be https (http only to a loopback host when private targets are allowed)'
  if (url.username || url.password) return 'must not carry a user name or password'
  if (url.hash) return 'must not have a fragment'
  const host = bare(url.hostname)
  if (isIP(host) !== 0) return refusalOf(host, allowPrivate)
  return null
}

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address the host resolved to, each checked. */
export interface ResolvedTarget {
  addresses: ResolvedAddress[]
}

/**
 * Resolves the URL's host and checks every address it resolves to; the connection is then made to
 * the checked address (pinned), so a second DNS answer cannot point it elsewhere (DNS rebinding).
 */
export async function resolveTarget(
  url: URL,
  allowPrivate: boolean,
): Promise<ResolvedTarget | { refused: string }> {
  const host = bare(url.hostname)
  const addresses =
    isIP(host) !== 0
      ? [{ address: host, family: isIP(host) }]
      : await lookup(host, { all: true, verbatim: true }).catch(() => [])
  if (addresses.length === 0) return { refused: `${host} does not resolve` }
  for (const { address } of addresses) {
    const refusal = refusalOf(address, allowPrivate)
    if (refusal) return { refused: refusal }
  }
  return {
    addresses: addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })),
  }
}
