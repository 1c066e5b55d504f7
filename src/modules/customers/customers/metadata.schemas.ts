import { type Static, Type } from '@sinclair/typebox'
import { METADATA_MAX_KEYS, METADATA_MAX_VALUE_LENGTH } from './metadata.rules.js'

/**
 * AddCustomerMetadata body. The value is one schema with a type list, not Nullable(): with the
 * kernel's type coercion an anyOf would turn a null (= remove) into "" (= set to empty).
 */
export const MetadataPatch = Type.Record(
  Type.String(),
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: METADATA_MAX_VALUE_LENGTH }),
  {
    minProperties: 1,
    maxProperties: 2 * METADATA_MAX_KEYS,
    description: `key -> value adds or overwrites the key, key -> null removes it. Keys 1 to 100 characters, values at most ${METADATA_MAX_VALUE_LENGTH}; at most ${METADATA_MAX_KEYS} keys after the merge.`,
    examples: [{ erpId: 'C-1042', legacyCode: null }],
  },
)
export type MetadataPatch = Static<typeof MetadataPatch>
