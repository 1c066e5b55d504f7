import { type Static, Type } from '@sinclair/typebox'
import { INT32_MAX } from '../../../http/list-params.js'
import { DateTime, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const CreateApiKeyRequest = Type.Object({
  label: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'name for the key' }))),
  // One schema with a type list, not Nullable(): with the kernel's type coercion an anyOf would
  // turn a failing 0 into null (= never expires) instead of rejecting it.
  ttlMinutes: Type.Optional(
    Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      minimum: 1,
      maximum: INT32_MAX,
      format: 'int32',
      description: 'life in minutes, 1 to 2147483647; absent or null means the key never expires',
    }),
  ),
  businessId: Uuid({ description: 'business the key acts for; a business of the caller’s organisation' }),
  scopes: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        description:
          'JSON text `{ "<ModuleName>": bitmask }` (1 view, 2 modify, 4 delete; a module by its name in any letter case, or by its ' +
          'number, 1 = Orders ... 16 = Schedule: `{"3": 1}` is `{"Customers": 1}`), stored and returned as given; scopesByModule ' +
          'shows it read by module name. Absent or null: unrestricted. A module absent from the scopes gives no access. An unknown ' +
          'name or number, a module given twice or a mask outside 0..7 is a 400 naming scopes.<key>.',
        examples: ['{"Orders": 7, "Customers": 1}', '{"1": 7, "3": 1}'],
      }),
    ),
  ),
})
export type CreateApiKeyRequest = Static<typeof CreateApiKeyRequest>

export const AccessTokenResponse = Type.Object({
  id: Uuid(),
  token: Nullable(
    Type.String({
      description: 'the key value: only in the response to POST /api/auth/tokens, null in lists',
    }),
  ),
  expiryDate: Nullable(DateTime({ description: 'null: the key never expires' })),
  title: Nullable(Type.String({ description: 'the label given at creation' })),
  scopes: Nullable(Type.String({ description: 'the scopes JSON text as given; null: unrestricted' })),
  scopesByModule: Nullable(
    Type.Record(Type.String(), Type.Integer(), {
      description:
        'the scopes as read: every module by name (module numbers given in scopes shown as names) with its bitmask, 0 for a ' +
        'module the scopes leave out; null: unrestricted. The key never exceeds the rights of the owner who created it.',
    }),
  ),
  dateCreated: DateTime(),
  lastUsedAt: Nullable(DateTime({ description: 'updated at most once a minute' })),
  businessId: Uuid({ description: 'business the key acts for' }),
  keyPrefix: Type.String({ description: 'first 12 characters of the key, to recognise it' }),
})
export type AccessTokenResponse = Static<typeof AccessTokenResponse>

export const ApiKeyIdParams = Type.Object({ id: Uuid() })
