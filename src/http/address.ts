import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from './schema-helpers.js'

const part = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })))

/** The address shape used everywhere (brief: Address). All parts optional; coordinates in WGS84. */
export const AddressInput = Type.Object(
  {
    fullAddress: part(500),
    unit: part(50),
    number: part(50),
    street: part(200),
    suburb: part(100),
    city: part(100),
    province: part(100),
    postcode: part(20),
    country: part(100),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  },
  { title: 'AddressRequest' },
)
export type AddressInput = Static<typeof AddressInput>

export const AddressOutput = Type.Object(
  {
    fullAddress: Nullable(Type.String()),
    unit: Nullable(Type.String()),
    number: Nullable(Type.String()),
    street: Nullable(Type.String()),
    suburb: Nullable(Type.String()),
    city: Nullable(Type.String()),
    province: Nullable(Type.String()),
    postcode: Nullable(Type.String()),
    country: Nullable(Type.String()),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
  },
  { title: 'Address' },
)
export type AddressOutput = Static<typeof AddressOutput>

const TEXT_PARTS = [
  'fullAddress',
  'unit',
  'number',
  'street',
  'suburb',
  'city',
  'province',
  'postcode',
  'country',
] as const

/** Normalises an address for storage (trimmed, blanks as null, every key present); null stays null. */
export function normaliseAddress(input: AddressInput | null | undefined): AddressOutput | null {
  if (!input) return null
  const out: Record<string, string | number | null> = {}
  for (const key of TEXT_PARTS) out[key] = input[key]?.trim() || null
  out.latitude = input.latitude ?? null
  out.longitude = input.longitude ?? null
  return out as AddressOutput
}

/** Reads a stored (jsonb) address back into the output shape, tolerating missing keys. */
export function readAddress(stored: unknown): AddressOutput | null {
  if (stored === null || typeof stored !== 'object') return null
  return normaliseAddress(stored as AddressInput)
}
