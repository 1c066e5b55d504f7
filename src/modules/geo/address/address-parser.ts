/**
 * Offline address parsing for the formats of South Africa, the United States, the United Kingdom,
 * Germany and Australia: postcode patterns, street number and name (number first, or after the
 * name as in German), unit, suburb, city, province and country, with the city and its
 * coordinates resolved against the gazetteer. Comma-separated parts are read from the end, where
 * the least ambiguous pieces are (country, then postcode with state or city).
 */
import type { AddressResponse } from './address.schemas.js'
import { type Place, placeKey, placesNamed } from './gazetteer.js'
import {
  AU_STATES,
  COUNTRY_ALIASES,
  COUNTRY_NAMES,
  type CountryCode,
  DIVISIONS,
  divisionCode,
  PLACE_ALIASES,
} from './regions.js'

const STREET_WORDS =
  /\b(street|st|road|rd|avenue|ave|av|boulevard|blvd|lane|ln|drive|dr|way|close|cl|crescent|cres|place|pl|court|ct|terrace|tce|highway|hwy|parade|pde|square|sq|circle|cir|row|walk|mews|hill|gardens|grove|park|strasse|straße|str|weg|allee|platz|gasse|ring|damm|ufer|chaussee)\b\.?/iu
/** German street names end in their kind: Invalidenstraße, Hauptstr., Lindenweg, Königsallee. */
const GERMAN_STREET = /(straße|strasse|str\.?|weg|allee|platz|gasse|ring|damm|ufer|chaussee|markt)$/iu
const UNIT =
  /^(unit|apt|apartment|suite|ste|flat|level|lvl|floor|fl|room|shop|building|bldg)\b\.?\s*(.+)$|^#\s*(\S+)$/i

interface Work {
  parts: string[]
  country?: CountryCode
  postcode?: string
  divisionCode?: string
}

const isCountry = (code: string): code is CountryCode => code in COUNTRY_NAMES

interface PostcodeRule {
  pattern: RegExp
  /** The country the pattern belongs to, and whether it applies given what is known so far. */
  applies: (work: Work, index: number, part: string) => boolean
  read: (m: RegExpExecArray, work: Work) => { rest: string | undefined; country?: CountryCode }
}

/** Most specific first: "NW1 6XE", "CA 90210", "NSW 2000", "10115 Berlin", then bare 5 and 4 digits. */
const POSTCODE_RULES: PostcodeRule[] = [
  {
    pattern: /^(.*?)\s*\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})$/i,
    applies: (work) => work.country === undefined || work.country === 'GB',
    read: (m, work) => {
      work.postcode = `${m[2]} ${m[3]}`.toUpperCase()
      return { rest: m[1], country: 'GB' }
    },
  },
  {
    pattern: /^(.*?)\s*\b([A-Za-z]{2})\s+(\d{5})(-\d{4})?$/,
    applies: (work, _i, part) => {
      const state = /\b([A-Za-z]{2})\s+\d{5}(-\d{4})?$/.exec(part)?.[1]?.toUpperCase() ?? ''
      return (work.country === undefined || work.country === 'US') && DIVISIONS.US[state] !== undefined
    },
    read: (m, work) => {
      work.divisionCode = m[2]?.toUpperCase()
      work.postcode = `${m[3]}${m[4] ?? ''}`
      return { rest: m[1], country: 'US' }
    },
  },
  {
    pattern: /^(.*?)\s*\b(NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\s+(\d{4})$/i,
    applies: (work) => work.country === undefined || work.country === 'AU',
    read: (m, work) => {
      work.divisionCode = AU_STATES[m[2]?.toUpperCase() ?? '']
      work.postcode = m[3]
      return { rest: m[1], country: 'AU' }
    },
  },
  {
    pattern: /^(\d{5})\s+(\p{L}.*)$/u,
    applies: (work) => work.country === undefined || work.country === 'DE',
    read: (m, work) => {
      work.postcode = m[1]
      return { rest: m[2], country: 'DE' }
    },
  },
  {
    pattern: /^(.*?)\s*\b(\d{5})(-\d{4})?$/,
    applies: (work) => work.country === 'US' || work.country === 'DE',
    read: (m, work) => {
      work.postcode = `${m[2]}${m[3] ?? ''}`
      return { rest: m[1] }
    },
  },
  {
    // Four digits: South Africa (or Australia when named); never the number of a street ("12 Long Street").
    pattern: /^(.*?)\s*\b(\d{4})$/,
    applies: (work, i, part) =>
      (work.country === undefined || work.country === 'ZA' || work.country === 'AU') &&
      (i > 0 || work.parts.length === 1) &&
      !/^\d+\s+\p{L}/u.test(part),
    read: (m, work) => {
      work.postcode = m[2]
      return { rest: m[1], country: 'ZA' }
    },
  },
]

/** Finds a postcode (with the state where the country writes one) at the end of one of the last two parts. */
function takePostcode(work: Work) {
  const from = Math.max(0, work.parts.length - 2)
  for (let i = work.parts.length - 1; i >= from; i--) {
    const part = work.parts[i] as string
    for (const rule of POSTCODE_RULES) {
      const m = rule.pattern.exec(part)
      if (!m || !rule.applies(work, i, part)) continue
      const { rest, country } = rule.read(m, work)
      work.country ??= country
      const remaining = (rest ?? '').trim()
      if (remaining) work.parts[i] = remaining
      else work.parts.splice(i, 1)
      return
    }
  }
}

interface Street {
  unit?: string
  number?: string
  street?: string
}

const STREET_FORMS: { pattern: RegExp; read: (m: RegExpExecArray) => Street | undefined }[] = [
  // "5/10 George St": unit 5, number 10 (Australia).
  {
    pattern: /^(\d+[A-Za-z]?)\s*\/\s*(\d+[A-Za-z]?)\s+(\p{L}.*)$/u,
    read: (m) => ({ unit: m[1], number: m[2], street: m[3] }),
  },
  // "221B Baker Street", "12-14 Long Street".
  {
    pattern: /^(\d+[A-Za-z]?(?:\s*[-–]\s*\d+[A-Za-z]?)?)\s+(\p{L}.*)$/u,
    read: (m) => ({ number: m[1], street: m[2] }),
  },
  // "Invalidenstraße 117", "Unter den Linden 77a" (the number after the name, as in German).
  {
    pattern: /^(\p{L}[\p{L}\p{M}\s.'-]*?)\s+(\d+\s?[A-Za-z]?)$/u,
    read: (m) =>
      STREET_WORDS.test(m[1] ?? '') || GERMAN_STREET.test(m[1] ?? '') || /\s/.test(m[1] ?? '')
        ? { street: m[1], number: m[2]?.replace(/\s/g, '') }
        : undefined,
  },
]

/** The street: "221B Baker Street", "5/10 George St", "Invalidenstraße 117", or a named street without a number. */
function readStreet(part: string): Street | undefined {
  for (const form of STREET_FORMS) {
    const m = form.pattern.exec(part)
    const street = m ? form.read(m) : undefined
    if (street) return street
  }
  if (STREET_WORDS.test(part) && !/\d/.test(part)) return { street: part }
  return undefined
}

function divisionOf(work: Work, place: Place | undefined): string | null {
  const country = work.country ?? (place && isCountry(place.country) ? place.country : undefined)
  if (!country) return null
  const code = work.divisionCode ?? (place?.country === country ? place.admin : undefined)
  return code ? (DIVISIONS[country][code] ?? null) : null
}

/** The gazetteer's places for a name as written, also under its usual other name ("München" -> Munich). */
function placeCandidates(name: string, country?: CountryCode): Place[] {
  const direct = placesNamed(name, country)
  if (direct.length > 0) return direct
  const alias = PLACE_ALIASES[placeKey(name)]
  return alias ? placesNamed(alias, country) : []
}

const round = (n: number) => Math.round(n * 100) / 100

/** The recognised address, or null when neither a place nor a postcode was found. */
export function parseAddress(text: string): AddressResponse | null {
  const work: Work = {
    parts: text
      .replace(/\s+/g, ' ')
      .split(/\s*[,;]\s*/)
      .map((p) => p.trim())
      .filter((p) => p !== ''),
  }
  const last = work.parts.at(-1)
  const named = last ? COUNTRY_ALIASES[placeKey(last)] : undefined
  const explicitCountry = named !== undefined
  if (named) {
    work.country = named
    work.parts.pop()
  }
  takePostcode(work)

  let unit: string | undefined
  work.parts = work.parts.filter((part) => {
    const m = UNIT.exec(part)
    if (m && unit === undefined) {
      unit = part
      return false
    }
    return true
  })

  let street: Street | undefined
  for (let i = 0; i < Math.min(2, work.parts.length); i++) {
    // The last part left is the city unless more precede it.
    if (i === work.parts.length - 1 && work.parts.length > 1) break
    const found = readStreet(work.parts[i] as string)
    if (found) {
      street = found
      work.parts.splice(i, 1)
      break
    }
  }
  if (street?.unit) unit ??= street.unit

  // A part naming a division of the country ("Western Cape", "CA", "NSW", "Bayern").
  const divisionIndex = work.parts.findIndex((part, i) => {
    if (i === 0 && work.parts.length > 1 && !work.country) return false
    const countries: CountryCode[] = work.country ? [work.country] : ['ZA', 'AU', 'DE', 'GB']
    for (const country of countries) {
      const code = divisionCode(country, part)
      if (code && placeCandidates(part, country).length === 0) {
        work.country ??= country
        work.divisionCode ??= code
        return true
      }
    }
    return false
  })
  if (divisionIndex >= 0) work.parts.splice(divisionIndex, 1)

  // The city: the last remaining part the gazetteer knows (in the country and division when known).
  let place: Place | undefined
  let cityIndex = -1
  for (let i = work.parts.length - 1; i >= 0 && !place; i--) {
    let candidates = placeCandidates(work.parts[i] as string, work.country)
    if (work.divisionCode) {
      const inDivision = candidates.filter((p) => p.admin === work.divisionCode)
      // "Washington" with DC is the place GeoNames calls "Washington, D.C.".
      const named = placeCandidates(`${work.parts[i]} ${work.divisionCode}`, work.country)
      candidates = inDivision.length > 0 ? inDivision : named.length > 0 ? named : candidates
    }
    if (candidates.length > 0) {
      place = candidates[0]
      cityIndex = i
    }
  }
  // A postcode alone (any four digits) says too little; with a street it still places the address.
  if (!place && !(work.postcode && street?.street)) return null
  if (!work.country && place && isCountry(place.country)) work.country = place.country
  const country = work.country ?? place?.country ?? null
  const city = place ? (work.parts[cityIndex] as string) : (work.parts.at(-1) ?? null)
  const cityAt = place ? cityIndex : work.parts.length - 1
  const suburb = cityAt > 0 ? (work.parts[cityAt - 1] as string) : null
  const province = divisionOf(work, place)

  const numberAndStreet = street?.street
    ? country === 'DE' && street.number
      ? `${street.street} ${street.number}`
      : [street.number, street.street].filter(Boolean).join(' ')
    : null
  const countryName = country && isCountry(country) ? COUNTRY_NAMES[country] : country
  const fullAddress = [unit, numberAndStreet, suburb, city, province, work.postcode, countryName]
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join(', ')

  let confidence = 0
  if (place) confidence += 0.35
  if (street?.street) confidence += 0.2
  if (street?.number) confidence += 0.1
  if (work.postcode) confidence += 0.15
  if (province) confidence += 0.05
  if (country) confidence += 0.05
  // Agreement between independent clues: the postcode's (or the named) country and the place's.
  if (place && (work.postcode || explicitCountry) && place.country === country) confidence += 0.1

  return {
    fullAddress,
    unit: unit ?? null,
    number: street?.number ?? null,
    street: street?.street ?? null,
    suburb,
    city,
    province,
    postcode: work.postcode ?? null,
    country,
    latitude: place ? place.latitude : null,
    longitude: place ? place.longitude : null,
    confidence: round(Math.min(1, confidence)),
  }
}
