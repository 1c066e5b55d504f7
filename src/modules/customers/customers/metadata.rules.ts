import type { Reason } from '../../../errors.js'

/** Limits on a customer's metadata (brief: free-form string -> string). */
export const METADATA_MAX_KEYS = 50
export const METADATA_MAX_KEY_LENGTH = 100
export const METADATA_MAX_VALUE_LENGTH = 1000

/**
 * Key rules JSON Schema cannot name per key (propertyNames errors name only the object).
 * `prefix` is how the client addresses the map: 'metadata.' in a customer body, '' on the metadata endpoint.
 */
export function metadataKeyReasons(keys: Iterable<string>, prefix: string): Reason[] {
  const reasons: Reason[] = []
  for (const key of keys) {
    const field = key ? `${prefix}${key}` : 'metadata'
    if (key.trim() === '') reasons.push({ field, message: 'a metadata key must not be empty or blank' })
    else if (key.length > METADATA_MAX_KEY_LENGTH) {
      reasons.push({ field, message: `a metadata key has at most ${METADATA_MAX_KEY_LENGTH} characters` })
    }
  }
  return reasons
}
