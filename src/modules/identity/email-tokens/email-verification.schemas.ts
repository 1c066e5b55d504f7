import { Type } from '@sinclair/typebox'

// The link is opened from an e-mail, and mail services may append tracking parameters
// (utm_source...): it takes any other query parameter, where other operations refuse them.
export const VerifyByTokenQuery = Type.Object(
  {
    token: Type.Optional(
      Type.String({ maxLength: 512, description: 'the token from the verification link' }),
    ),
  },
  { additionalProperties: true },
)

/** Spec §4.2: "no body". */
export const NoBody = {
  type: 'null',
  description: 'The address is verified. The response has no body.',
} as const
