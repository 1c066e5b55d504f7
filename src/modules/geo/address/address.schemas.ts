import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../../../http/schema-helpers.js'

export const MAX_ADDRESS_TEXT = 500

export const AddressQuery = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: MAX_ADDRESS_TEXT,
      description: 'The address as a person writes it, e.g. "221B Baker Street, London NW1 6XE"',
    }),
  },
  { additionalProperties: false },
)

const text = (description: string) => Nullable(Type.String({ description }))

export const AddressResponse = Type.Object(
  {
    fullAddress: Type.String({ description: 'The recognised parts, formatted, separated by commas' }),
    unit: text('Unit, flat, suite, level or apartment'),
    number: text('Street number, e.g. "221B"'),
    street: text('Street name with its suffix'),
    suburb: text('Suburb, district or locality within the city'),
    city: text('City or town'),
    province: text('Province, state, Land or country part'),
    postcode: text('Postal code as the country writes it'),
    country: text('ISO 3166-1 alpha-2 code'),
    latitude: Nullable(Type.Number({ description: 'WGS84; city precision from the offline gazetteer' })),
    longitude: Nullable(Type.Number({ description: 'WGS84' })),
    confidence: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'How much of the text was recognised, 0..1',
    }),
  },
  { title: 'AddressResponse' },
)
export type AddressResponse = Static<typeof AddressResponse>
