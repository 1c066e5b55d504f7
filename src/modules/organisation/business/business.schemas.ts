import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

/**
 * A string or null as ONE schema with a type list: with the kernel's type coercion a
 * `Nullable(Type.String())` (anyOf) would turn a JSON null into "".
 */
const NullableText = (maxLength: number, options: { format?: string; description?: string } = {}) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, ...options })

const flag = (description: string) => Type.Optional(Type.Boolean({ description }))

const CURRENCY_DESCRIPTION =
  'ISO 4217 code (any letter case), one of the currencies of GET /api/business/default-configuration'
const TIMEZONE_DESCRIPTION =
  "IANA time zone name (any letter case), one of the time zones of GET /api/business/default-configuration, or 'UTC'"

/** Fields a client may set on a business, shared by create and update. */
const editable = {
  registrationNumber: Type.Optional(NullableText(30)),
  email: Type.Optional(NullableText(254, { format: 'email' })),
  phoneNumber: Type.Optional(NullableText(30)),
  website: Type.Optional(NullableText(100)),
  address: Type.Optional(Nullable(AddressInput)),
  parentBusinessId: Type.Optional(
    NullableText(36, {
      format: 'uuid',
      description: 'a business of the same organisation; not the business itself nor one of its descendants',
    }),
  ),
  requiresOrderIntegration: flag('orders arrive from an integration'),
  requiresOrderFulfillment: flag('the business fulfils orders'),
  requiresAccountingIntegration: flag('invoices go to an accounting system'),
  requiresDispatchBuilder: flag('the business plans deliveries'),
  multipleBranches: flag('the business has branches'),
}

export const UpdateBusinessCommand = Type.Object(
  {
    registeredName: Type.String({ minLength: 1, maxLength: 100 }),
    displayName: Type.String({ minLength: 1, maxLength: 50 }),
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{3}$',
        description: `${CURRENCY_DESCRIPTION}; kept as is when absent`,
      }),
    ),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: `${TIMEZONE_DESCRIPTION}; kept as is when absent`,
      }),
    ),
    ...editable,
  },
  {
    description:
      'Replaces the editable fields: registeredName and displayName are required; currency and timezone (settings with ' +
      'defaults) keep their current values when absent; any other optional field left out becomes null (flags: false, ' +
      'parentBusinessId: no parent).',
  },
)
export type UpdateBusinessCommand = Static<typeof UpdateBusinessCommand>

export const CreateBusinessRequest = Type.Object(
  {
    registeredName: Type.String({ minLength: 1, maxLength: 100 }),
    displayName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 50, description: 'defaults to registeredName (cut to 50)' }),
    ),
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{3}$',
        description: `${CURRENCY_DESCRIPTION}; defaults to the current business's currency`,
      }),
    ),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: `${TIMEZONE_DESCRIPTION}; defaults to the current business's time zone`,
      }),
    ),
    ...editable,
  },
  { description: 'A new business in the caller’s organisation, optionally under parentBusinessId.' },
)
export type CreateBusinessRequest = Static<typeof CreateBusinessRequest>

export const BusinessResponse = Type.Object({
  id: Uuid(),
  registeredName: Type.String(),
  displayName: Type.String(),
  registrationNumber: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  website: Nullable(Type.String()),
  address: Nullable(AddressOutput),
  currency: Type.String({ description: 'ISO 4217 code' }),
  timezone: Type.String({ description: 'IANA time zone name' }),
  parentBusinessId: Nullable(Uuid()),
  requiresOrderIntegration: Type.Boolean(),
  requiresOrderFulfillment: Type.Boolean(),
  requiresAccountingIntegration: Type.Boolean(),
  requiresDispatchBuilder: Type.Boolean(),
  multipleBranches: Type.Boolean(),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type BusinessResponse = Static<typeof BusinessResponse>

export const BusinessParams = Type.Object({ businessId: Uuid() })

export const BusinessDefaultSettings = Type.Object({
  currencies: Type.Array(
    Type.Object({
      code: Type.String({ description: 'ISO 4217 code' }),
      name: Type.String(),
      symbol: Type.String({ description: 'narrow symbol, e.g. R for ZAR; the code when there is none' }),
      decimals: Type.Integer({ description: 'minor-unit digits, e.g. 2 for USD, 0 for JPY' }),
    }),
    { description: 'every ISO 4217 currency in current use' },
  ),
  timezones: Type.Array(
    Type.Object({
      id: Type.String({ description: 'IANA time zone name' }),
      utcOffset: Type.String({
        description: 'offset from UTC now (e.g. +02:00); changes with daylight saving',
      }),
    }),
  ),
  countries: Type.Array(
    Type.Object({
      code: Type.String({ description: 'ISO 3166-1 alpha-2 (XK for Kosovo)' }),
      name: Type.String(),
    }),
    { description: 'countries and territories, sorted by English name' },
  ),
  units: Type.Object({
    weight: Type.Array(Type.String()),
    dimension: Type.Array(Type.String()),
    volume: Type.Array(Type.String()),
  }),
  defaults: Type.Object({
    currency: Type.String(),
    timezone: Type.String(),
    country: Nullable(Type.String()),
    weightUnit: Type.String(),
    dimensionUnit: Type.String(),
    dateFormat: Type.String({ description: 'Unicode date pattern' }),
  }),
})
