import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { classifyAddress, isLoopbackAddress } from './address-class.js'

/**
 * Why an address is refused as a webhook target (server-side request forgery), or null when a
 * webhook may go there: private, loopback, link-local and unique-local addresses unless
 * WEBHOOKS_ALLOW_PRIVATE_TARGETS is on; unspecified, multicast, documentation and reserved ones
 * always. An IPv6 address carrying an IPv4 address is judged by that one too (address-class.ts).
 * Both the check of a URL when an endpoint is saved and the check of every resolved address before
 * a delivery is dialled come here.
 */
export function refusalOf(address: string, allowPrivate: boolean): string | null {
  const found = classifyAddress(address)
  if (!found) return `${address} is not an IP address`
  if (found.verdict === 'never') return `${address} is ${found.description}: never a webhook target`
  if (found.verdict === 'private' && !allowPrivate)
    return `${address} is ${found.description}, private (WEBHOOKS_ALLOW_PRIVATE_TARGETS is off)`
  return null
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '')

const isLoopbackHost = (hostname: string) => {
  const host = bare(hostname).toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  return isLoopbackAddress(host)
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
  signal?: AbortSignal,
): Promise<ResolvedTarget | { refused: string } | { aborted: true }> {
  const host = bare(url.hostname)
  const addresses =
    isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await boundedLookup(host, signal)
  if (addresses === 'aborted') return { aborted: true }
  if (addresses.length === 0) return { refused: `${host} does not resolve` }
  for (const { address } of addresses) {
    const refusal = refusalOf(address, allowPrivate)
    if (refusal) return { refused: refusal }
  }
  return {
    addresses: addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })),
  }
}

/**
 * The system resolver cannot be cancelled, and with an unreachable name server it answers only
 * after its own retries (tens of seconds): the caller stops waiting when `signal` aborts.
 */
function boundedLookup(
  host: string,
  signal: AbortSignal | undefined,
): Promise<{ address: string; family: number }[] | 'aborted'> {
  const resolved = lookup(host, { all: true, verbatim: true }).catch(() => [])
  if (!signal) return resolved
  if (signal.aborted) return Promise.resolve('aborted')
  return new Promise((resolve) => {
    const onAbort = () => resolve('aborted')
    signal.addEventListener('abort', onAbort, { once: true })
    resolved.then((addresses) => {
      signal.removeEventListener('abort', onAbort)
      resolve(addresses)
    })
  })
}
