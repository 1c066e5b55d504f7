import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Uuid } from '../../../http/schema-helpers.js'

export const MintOneTimeTokenRequest = Type.Object({
  targetApp: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'the application the session is handed to (recorded with the token)',
  }),
  businessId: Uuid({
    description:
      'the business the handed-off session lands in: one of the caller’s organisation (for a handed-off session: its own business only)',
  }),
})
export type MintOneTimeTokenRequest = Static<typeof MintOneTimeTokenRequest>

export const OneTimeTokenResponse = Type.Object({
  token: Type.String({ description: 'single use; redeem with POST /api/auth/ott/redeem' }),
  expiresAt: DateTime({ description: '60 seconds after minting' }),
})
export type OneTimeTokenResponse = Static<typeof OneTimeTokenResponse>

export const RedeemOneTimeTokenRequest = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
})
