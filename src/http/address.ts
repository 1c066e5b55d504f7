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

const text = (value: string | null | undefined) => value?.trim() || null

/**
 * Normalises an address for storage (trimmed, blanks as null, every key present); null stays null.
 * One object literal: every address read on a hot path gets the same shape.
 */
export function normaliseAddress(input: AddressInput | null | undefined): AddressOutput | null {
  if (!input) return null
  return {
    fullAddress: text(input.fullAddress),
    unit: text(input.unit),
    number: text(input.number),
    street: text(input.street),
    suburb: text(input.suburb),
    city: text(input.city),
    province: text(input.province),
    postcode: text(input.postcode),
    country: text(input.country),
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
  }
}

/** Reads a stored (jsonb) address back into the output shape, tolerating missing keys. */
export function readAddress(stored: unknown): AddressOutput | null {
  if (stored === null || typeof stored !== 'object') return null
  return normaliseAddress(stored as AddressInput)
}
