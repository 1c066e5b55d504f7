import { AppError, invalidField } from '../../../errors.js'
import { addressNotFound } from './address.errors.js'
import type { AddressResponse } from './address.schemas.js'
import { parseAddress } from './address-parser.js'
import type { Geocoder } from './geocoder.js'

/** Text no address could be: control characters, no letter or digit, absurdly long words or too many parts. */
function checkText(text: string) {
  if (/\p{Cc}/u.test(text.replace(/[\t\n\r]/g, ' ')))
    throw invalidField('text', 'must not contain control characters')
  if (!/[\p{L}\p{N}]/u.test(text)) throw invalidField('text', 'must contain letters or digits')
  if (text.split(/\s+/).some((word) => word.length > 60))
    throw invalidField('text', 'has a word longer than 60 characters')
  if (text.split(/[,;]/).length > 12) throw invalidField('text', 'has more than 12 comma-separated parts')
}

/** The geocoder first when configured (with the offline parser as the fallback), else the parser. */
export async function addressFromText(
  text: string,
  geocoder: Geocoder | undefined,
): Promise<AddressResponse> {
  const trimmed = text.trim()
  if (trimmed === '') throw invalidField('text', 'must not be blank')
  checkText(trimmed)
  const online = geocoder ? await geocoder.lookup(trimmed) : undefined
  if (online) return online
  const parsed = parseAddress(trimmed)
  if (!parsed) throw addressNotFound()
  return parsed
}

/**
 * The lookup for other modules (a shipment's address on create): the same geocoder-then-parser
 * lookup, but text it cannot read, or reads without coordinates, is simply not located
 * (undefined) instead of an error, so the caller can go on without coordinates and say so.
 */
export async function locateAddress(
  text: string,
  geocoder: Geocoder | undefined,
): Promise<AddressResponse | undefined> {
  try {
    const found = await addressFromText(text, geocoder)
    return found.latitude === null || found.longitude === null ? undefined : found
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return undefined
    throw error
  }
}
