/**
 * A Nominatim-compatible geocoder (`GEOCODER_URL`), asked before the offline parser: one request
 * with a timeout, answers kept in a bounded least-recently-used cache for an hour (also "found
 * nothing"), and any failure (timeout, HTTP error, bad JSON) reported as undefined so the caller
 * falls back to the offline parser.
 */
import type { AddressResponse } from './address.schemas.js'

const CACHE_LIMIT = 1_000
const CACHE_TTL_MS = 60 * 60 * 1000

interface NominatimPlace {
  lat?: string
  lon?: string
  display_name?: string
  importance?: number
  address?: Record<string, string | undefined>
}

/** One geocoder (and so one cache) per configuration: the address lookup and shipments share it. */
const shared = new WeakMap<object, Geocoder | undefined>()
export function geocoderFor(config: { geocoderUrl: string | undefined; geocoderTimeoutMs: number }) {
  if (!shared.has(config))
    shared.set(
      config,
      config.geocoderUrl ? new Geocoder(config.geocoderUrl, config.geocoderTimeoutMs) : undefined,
    )
  return shared.get(config)
}

export class Geocoder {
  private readonly cache = new Map<string, { at: number; answer: AddressResponse | null }>()

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /** The geocoder's answer (null: it found nothing), or undefined when it could not be asked. */
  async lookup(text: string): Promise<AddressResponse | null | undefined> {
    const key = text.trim().toLowerCase()
    const cached = this.cache.get(key)
    if (cached && Date.now() - cached.at < CACHE_TTL_MS) {
      this.cache.delete(key)
      this.cache.set(key, cached)
      return cached.answer
    }
    const url = new URL(`${this.baseUrl}/search`)
    url.searchParams.set('q', text)
    url.searchParams.set('format', 'jsonv2')
    url.searchParams.set('addressdetails', '1')
    url.searchParams.set('limit', '1')
    let answer: AddressResponse | null | undefined
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'Cartage address lookup' },
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      if (!response.ok) return undefined
      const body = (await response.json()) as unknown
      if (!Array.isArray(body)) return undefined
      answer = body.length > 0 ? fromNominatim(body[0] as NominatimPlace) : null
    } catch {
      return undefined
    }
    if (answer === undefined) return undefined
    this.cache.set(key, { at: Date.now(), answer })
    if (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value
      if (oldest !== undefined) this.cache.delete(oldest)
    }
    return answer
  }
}

/** Nominatim's place as an AddressResponse; undefined when it lacks coordinates. */
function fromNominatim(place: NominatimPlace): AddressResponse | undefined {
  const latitude = Number(place.lat)
  const longitude = Number(place.lon)
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined
  const a = place.address ?? {}
  const pick = (...keys: string[]) =>
    keys.map((k) => a[k]).find((v) => typeof v === 'string' && v !== '') ?? null
  return {
    fullAddress: place.display_name ?? '',
    unit: pick('unit', 'flat'),
    number: pick('house_number'),
    street: pick('road', 'pedestrian', 'street'),
    suburb: pick('suburb', 'neighbourhood', 'quarter', 'city_district'),
    city: pick('city', 'town', 'village', 'municipality'),
    province: pick('state', 'province', 'region'),
    postcode: pick('postcode'),
    country: pick('country_code')?.toUpperCase() ?? null,
    latitude,
    longitude,
    confidence: Math.round(Math.min(1, Math.max(0, place.importance ?? 0.8)) * 100) / 100,
  }
}
