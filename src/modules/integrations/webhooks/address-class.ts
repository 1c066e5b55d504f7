import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * What an IP address is, as a webhook target: `public` (may be dialled), `private` (only when
 * WEBHOOKS_ALLOW_PRIVATE_TARGETS is on) or `never`. The ranges are ipaddr.js's (IANA's special-purpose
 * registries), not a list kept here. An IPv6 address that carries an IPv4 address (IPv4-mapped,
 * IPv4-translated, IPv4-compatible, 6to4, NAT64, Teredo) is judged by the IPv4 address too, since
 * that is where the packets end up.
 */
export type Verdict = 'public' | 'private' | 'never'

export interface AddressClass {
  verdict: Verdict
  /** What the address is, for the refusal: `in the loopback range`, `a 6to4 address carrying 127.0.0.1 (loopback)`. */
  description: string
}

/** ipaddr.js range names; a name not listed here (a range added by a later release) is `never`. */
const IPV4_RANGES: Record<string, Verdict> = {
  unicast: 'public',
  as112: 'public',
  amt: 'public',
  private: 'private',
  loopback: 'private',
  linkLocal: 'private',
  carrierGradeNat: 'private',
  unspecified: 'never',
  broadcast: 'never',
  multicast: 'never',
  reserved: 'never',
  benchmarking: 'never',
}

const IPV6_RANGES: Record<string, Verdict> = {
  unicast: 'public',
  as112v6: 'public',
  amt: 'public',
  loopback: 'private',
  linkLocal: 'private',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  unspecified: 'never',
  multicast: 'never',
  reserved: 'never',
  discard: 'never',
  benchmarking: 'never',
  deprecatedOrchid: 'never',
  orchid2: 'never',
  droneRemoteIdProtocolEntityTags: 'never',
  segmentRouting: 'never',
}

const RANK: Record<Verdict, number> = { public: 0, private: 1, never: 2 }
const worst = (a: Verdict, b: Verdict): Verdict => (RANK[a] >= RANK[b] ? a : b)

/** Global unicast (2000::/3): the only IPv6 space allocated for the Internet; the rest is reserved. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3')
/** RFC 8215's local-use NAT64 prefix: not globally reachable, unlike the well-known 64:ff9b::/96. */
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48')

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

function classifyIPv4(address: ipaddr.IPv4): { verdict: Verdict; range: string } {
  const range = address.range()
  return { verdict: IPV4_RANGES[range] ?? 'never', range }
}

/** The IPv4 addresses an IPv6 address carries, by its form; null when it carries none. */
function carriedIPv4(address: ipaddr.IPv6): { form: string; carried: ipaddr.IPv4[] } | null {
  const p = address.parts
  const last = ipv4Of(p[6] ?? 0, p[7] ?? 0)
  switch (address.range()) {
    case 'ipv4Mapped':
      return { form: 'an IPv4-mapped address', carried: [last] }
    case 'rfc6145':
      return { form: 'an IPv4-translated address', carried: [last] }
    case 'rfc6052':
      return { form: 'a NAT64 address', carried: [last] }
    case '6to4':
      return { form: 'a 6to4 address', carried: [ipv4Of(p[1] ?? 0, p[2] ?? 0)] }
    case 'teredo':
      // The server's address in clear, the client's inverted (RFC 4380).
      return {
        form: 'a Teredo address',
        carried: [ipv4Of(p[2] ?? 0, p[3] ?? 0), ipv4Of(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)],
      }
    case 'unicast':
      // ::/96 but :: and ::1 (ranges of their own): IPv4-compatible, deprecated by RFC 4291.
      if (p.slice(0, 6).every((part) => part === 0))
        return { form: 'an IPv4-compatible address (deprecated)', carried: [last] }
      return null
    default:
      return null
  }
}

function classifyIPv6(address: ipaddr.IPv6): AddressClass {
  const carrying = carriedIPv4(address)
  if (!carrying) {
    const range = address.range()
    let verdict = IPV6_RANGES[range] ?? 'never'
    if (range === 'unicast' && !address.match(GLOBAL_UNICAST)) verdict = 'never'
    const name = range === 'unicast' ? (verdict === 'public' ? 'global unicast' : 'unallocated') : range
    return { verdict, description: `in the ${name} range` }
  }
  const { form, carried } = carrying
  const inner = carried.map(classifyIPv4)
  const carriedVerdict = inner.reduce<Verdict>((all, { verdict }) => worst(all, verdict), 'public')
  const what = carried.map((ipv4, i) => `${ipv4.toString()} (${inner[i]?.range})`).join(' and ')
  const description = `${form} carrying ${what}`
  const range = address.range()
  if (range === 'ipv4Mapped' || range === 'rfc6145') return { verdict: carriedVerdict, description }
  if (form.startsWith('an IPv4-compatible')) return { verdict: 'never', description }
  if (range === 'rfc6052' && address.match(LOCAL_NAT64))
    return { verdict: worst('private', carriedVerdict), description: `a local-use ${description.slice(2)}` }
  // 6to4, Teredo and the well-known NAT64 prefix carry only public IPv4 addresses (RFCs 3056, 4380,
  // 6052): any other is not a real one, only a way round the IPv4 ranges.
  return { verdict: carriedVerdict === 'public' ? 'public' : 'never', description }
}

/** The class of an IP address in its usual text form; null when it is not one. */
export function classifyAddress(text: string): AddressClass | null {
  const address = text.replace(/%.*$/, '') // a zone index names an interface, not an address
  const family = isIP(address)
  if (family === 4) {
    const { verdict, range } = classifyIPv4(ipaddr.IPv4.parse(address))
    return { verdict, description: `in the ${range} range` }
  }
  if (family !== 6) return null
  // The WHATWG URL parser's reading (the one fetch uses); ipaddr.js would take `::1.2.3.4` as
  // `::ffff:1.2.3.4`.
  let canonical: string
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  } catch {
    return null
  }
  return classifyIPv6(ipaddr.IPv6.parse(canonical))
}

/** True for a loopback address, or an IPv4-mapped one carrying a loopback address. */
export function isLoopbackAddress(text: string): boolean {
  const family = isIP(text)
  if (family === 0) return false
  const parsed = ipaddr.parse(text)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return (parsed as ipaddr.IPv6).toIPv4Address().range() === 'loopback'
  return parsed.range() === 'loopback'
}
